// Malformed ROI_ALIGN, ROI_POOLING, BOX_WITH_NMS_LIMIT and AXIS_ALIGNED_BBOX_TRANSFORM models
// whose faults are runtime checks of the reference that shapes and constant scalars already
// show at prepare (output sizes, ratios, sampling ratios, box shapes, batch-index lengths, the
// 16-bit boxes' fixed quantization, the number of classes, ranks): each model validates (its
// operand types match a signature) but preparing it fails with an error naming the operation,
// without crashing; the valid neighbour of each case prepares. Faults in the data (box values,
// batch indices, NMS kernel codes read at execution) are covered by the kernel tests
// (tests/ops/roi.cpp, tests/ops/detection.cpp).

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/validate/model.hpp"
#include "validate/model_fixtures.hpp"
#include "validate/one_op_fixture.hpp"

namespace nnhal::test::malformed::region_suite {

namespace {

constexpr auto F32 = OperandType::TENSOR_FLOAT32;
constexpr auto I32 = OperandType::TENSOR_INT32;
constexpr auto QA8 = OperandType::TENSOR_QUANT8_ASYMM;
constexpr auto Q16 = OperandType::TENSOR_QUANT16_ASYMM;
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

struct Roi {
  nnhal::Vector<std::uint32_t> input{1, 4, 4, 2}, rois{3, 4}, batch{3};
  std::int32_t out_h = 2, out_w = 2;
  float h_ratio = 1.0f, w_ratio = 1.0f;
  std::int32_t h_samples = 0, w_samples = 0;
  bool quant = false;
  float box_scale = 0.125f;
};

OneOp roi_op(OperationType type, const Roi& r) {
  OneOp m(type);
  if (r.quant) {
    m.tensor(QA8, r.input, 0.5f, 10).tensor(Q16, r.rois, r.box_scale, 0);
  } else {
    m.tensor(F32, r.input).tensor(F32, r.rois);
  }
  m.tensor(I32, r.batch).ints({r.out_h, r.out_w}).f32(r.h_ratio).f32(r.w_ratio);
  if (type == OperationType::ROI_ALIGN) m.ints({r.h_samples, r.w_samples});
  m.flag(false);
  if (r.quant)
    m.output(QA8, 0.5f, 10);
  else
    m.output(F32);
  return m;
}

}  // namespace

TEST_CASE("malformed ROI_ALIGN / ROI_POOLING: sizes, ratios, samples, box shapes refused at prepare") {
  for (OperationType op : {OperationType::ROI_ALIGN, OperationType::ROI_POOLING}) {
    const char* name = op == OperationType::ROI_ALIGN ? "ROI_ALIGN" : "ROI_POOLING";
    const bool align = op == OperationType::ROI_ALIGN;
    check_prepares(roi_op(op, {}));
    Roi quant;
    quant.quant = true;
    check_prepares(roi_op(op, quant));
    Roi r;
    r.out_h = 0;
    check_refused(roi_op(op, r), name, "not positive");
    r = {};
    r.out_w = -3;
    check_refused(roi_op(op, r), name, "not positive");
    r = {};
    r.h_ratio = 0.0f;
    check_refused(roi_op(op, r), name, "positive and finite");
    r = {};
    r.w_ratio = kNaN;
    check_refused(roi_op(op, r), name, "positive and finite");
    r = {};
    r.w_ratio = std::numeric_limits<float>::infinity();
    check_refused(roi_op(op, r), name, "positive and finite");
    if (align) {
      r = {};
      r.h_samples = -1;
      check_refused(roi_op(op, r), name, "negative");
    }
    r = {};
    r.rois = {3, 5};
    check_refused(roi_op(op, r), name, "[num_rois, 4]");
    r = {};
    r.batch = {2};
    check_refused(roi_op(op, r), name, "batch_index");
    r = {};
    r.input = {4, 4, 2};
    check_refused(roi_op(op, r), name, "rank 3");
    r = quant;
    r.box_scale = 0.25f;
    check_refused(roi_op(op, r), name, "scale 0.125");
  }
}

namespace {

struct Nms {
  nnhal::Vector<std::uint32_t> scores{4, 3}, boxes{4, 12}, batch{4};
};

OneOp nms_op(const Nms& n) {
  OneOp m(OperationType::BOX_WITH_NMS_LIMIT);
  m.tensor(F32, n.scores).tensor(F32, n.boxes).tensor(I32, n.batch);
  m.f32(0.1f).ints({-1, 0}).f32(0.5f).f32(1.0f).f32(0.01f);
  m.output(F32).output(F32).output(I32).output(I32);
  return m;
}

struct Bbox {
  nnhal::Vector<std::uint32_t> rois{2, 4}, deltas{2, 8}, batch{2}, info{1, 2};
  bool quant = false;
  float roi_scale = 0.125f, info_scale = 0.125f;
};

OneOp bbox_op(const Bbox& b) {
  OneOp m(OperationType::AXIS_ALIGNED_BBOX_TRANSFORM);
  if (b.quant) {
    m.tensor(Q16, b.rois, b.roi_scale, 0).tensor(QA8, b.deltas, 0.05f, 128).tensor(I32, b.batch);
    m.tensor(Q16, b.info, b.info_scale, 0).output(Q16, 0.125f, 0);
  } else {
    m.tensor(F32, b.rois).tensor(F32, b.deltas).tensor(I32, b.batch).tensor(F32, b.info).output(F32);
  }
  return m;
}

}  // namespace

TEST_CASE("malformed BOX_WITH_NMS_LIMIT: shapes refused at prepare when the scores are constant") {
  // With request-input scores the node's shapes are inferred at execution (its output size
  // depends on the data); a shape fault is then an execution error (tests/ops/detection.cpp).
  check_prepares(nms_op({}));
  // Constant scores / boxes / batch index: inferred at prepare.
  auto constant = [](nnhal::Vector<std::uint32_t> sd, nnhal::Vector<std::uint32_t> bd, nnhal::Vector<std::uint32_t> id) {
    std::size_t ns = 1, nb = 1, ni = 1;
    for (auto d : sd) ns *= d;
    for (auto d : bd) nb *= d;
    for (auto d : id) ni *= d;
    Model model;  // tensors as constants (zeros), scalars after them, each 4-byte aligned
    auto put = [&](OperandType t, nnhal::Vector<std::uint32_t> dims, std::size_t count, std::size_t elem) {
      const auto at = static_cast<std::uint32_t>((model.operandValues.size() + 3) / 4 * 4);
      model.operandValues.resize(at + count * elem, 0);
      model.main.operands.push_back(copy_constant(t, std::move(dims), at, static_cast<std::uint32_t>(count * elem)));
      return static_cast<std::uint32_t>(model.main.operands.size() - 1);
    };
    nnhal::Vector<std::uint32_t> ins = {put(F32, sd, ns, 4), put(F32, bd, nb, 4), put(I32, id, ni, 4)};
    auto scalar = [&](OperandType t, auto v) {
      const auto at = static_cast<std::uint32_t>((model.operandValues.size() + 3) / 4 * 4);
      model.operandValues.resize(at + sizeof v, 0);
      std::memcpy(model.operandValues.data() + at, &v, sizeof v);
      model.main.operands.push_back(copy_constant(t, {}, at, sizeof v));
      ins.push_back(static_cast<std::uint32_t>(model.main.operands.size() - 1));
    };
    scalar(OperandType::FLOAT32, 0.1f);
    scalar(OperandType::INT32, std::int32_t{-1});
    scalar(OperandType::INT32, std::int32_t{0});
    scalar(OperandType::FLOAT32, 0.5f);
    scalar(OperandType::FLOAT32, 1.0f);
    scalar(OperandType::FLOAT32, 0.01f);
    nnhal::Vector<std::uint32_t> outs;
    for (OperandType t : {F32, F32, I32, I32}) {
      model.main.operands.push_back(make_operand(t, {}, kOutput));
      outs.push_back(static_cast<std::uint32_t>(model.main.operands.size() - 1));
      model.main.outputIndexes.push_back(outs.back());
    }
    model.main.operations.push_back(Operation{OperationType::BOX_WITH_NMS_LIMIT, ins, outs});
    fix_consumers(model);
    return model;
  };
  auto refused = [](const Model& m, const char* fact) {
    INFO("expected fragment: ", std::string(fact));
    REQUIRE(validate_model(m).has_value());
    auto p = PreparedModel::prepare(m);
    REQUIRE_FALSE(p.has_value());
    const std::string msg(p.error().message());
    CAPTURE(msg);
    CHECK(msg.find("BOX_WITH_NMS_LIMIT") != std::string::npos);
    CHECK(msg.find(fact) != std::string::npos);
  };
  {
    const Model ok = constant({2, 3}, {2, 12}, {2});
    REQUIRE(validate_model(ok).has_value());
    auto p = PreparedModel::prepare(ok);
    INFO("error: " << (p ? std::string("none") : std::string(p.error().message())));
    CHECK(p.has_value());
  }
  refused(constant({2, 3}, {2, 8}, {2}), "4 * num_classes");
  refused(constant({2, 3}, {2, 12}, {3}), "batch_index");
  refused(constant({2, 1}, {2, 4}, {2}), "more than one class");
}

TEST_CASE("malformed AXIS_ALIGNED_BBOX_TRANSFORM: shapes and 16-bit quantization refused at prepare") {
  const char* name = "AXIS_ALIGNED_BBOX_TRANSFORM";
  check_prepares(bbox_op({}));
  Bbox q;
  q.quant = true;
  check_prepares(bbox_op(q));
  Bbox b;
  b.rois = {2, 5};
  check_refused(bbox_op(b), name, "rois");
  b = {};
  b.deltas = {2, 7};
  check_refused(bbox_op(b), name, "deltas");
  b = {};
  b.deltas = {3, 8};
  check_refused(bbox_op(b), name, "deltas");
  b = {};
  b.batch = {1};
  check_refused(bbox_op(b), name, "batch_index");
  b = {};
  b.info = {1, 3};
  check_refused(bbox_op(b), name, "image_info");
  b = q;
  b.roi_scale = 0.5f;
  check_refused(bbox_op(b), name, "scale 0.125");
  b = q;
  b.info_scale = 1.0f;
  check_refused(bbox_op(b), name, "scale 0.125");
}

}  // namespace nnhal::test::malformed::region_suite
