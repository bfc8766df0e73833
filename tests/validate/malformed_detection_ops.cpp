// Malformed HEATMAP_MAX_KEYPOINT, GENERATE_PROPOSALS, DETECTION_POSTPROCESSING, LSH_PROJECTION
// and RANDOM_MULTINOMIAL models whose faults the declared shapes and constant scalars already
// show: each matches a signature but validation refuses it with an error naming the operation
// and the fault, one case per rule of the rows; the valid neighbour of each case validates and
// prepares. Faults in the data (box and anchor values, runtime scalars) are covered by the
// kernel tests (tests/ops/detection_postprocessing.cpp, lsh_projection.cpp,
// random_multinomial.cpp).

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/validate/model.hpp"
#include "validate/model_fixtures.hpp"
#include "validate/one_op_fixture.hpp"

namespace nnhal::test::malformed::detection_suite {

namespace {

constexpr auto F32 = OperandType::TENSOR_FLOAT32;
constexpr auto F16 = OperandType::TENSOR_FLOAT16;
constexpr auto I32 = OperandType::TENSOR_INT32;
constexpr auto QA8 = OperandType::TENSOR_QUANT8_ASYMM;
constexpr auto Q16 = OperandType::TENSOR_QUANT16_ASYMM;
constexpr auto QS16 = OperandType::TENSOR_QUANT16_SYMM;
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

void refused(const OneOp& op, const char* name, const char* fact) { check_model_invalid(op.model(), {name, fact}); }

// ---- HEATMAP_MAX_KEYPOINT

struct Heat {
  nnhal::Vector<std::uint32_t> heat{2, 4, 4, 3}, boxes{2, 4};
  bool nchw = false, quant = false;
  float box_scale = 0.125f;
};

OneOp heat_op(const Heat& h) {
  OneOp m(OperationType::HEATMAP_MAX_KEYPOINT);
  if (h.quant)
    m.tensor(QA8, h.heat, 0.1f, 3).tensor(Q16, h.boxes, h.box_scale, 0);
  else
    m.tensor(F32, h.heat).tensor(F32, h.boxes);
  m.flag(h.nchw);
  if (h.quant)
    m.output(QA8, 0.1f, 3).output(Q16, 0.125f, 0);
  else
    m.output(F32).output(F32);
  return m;
}

}  // namespace

TEST_CASE("malformed HEATMAP_MAX_KEYPOINT: ranks, box shapes, map size, box quantization") {
  constexpr const char* name = "HEATMAP_MAX_KEYPOINT";
  check_prepares(heat_op({}));
  Heat h;
  h.quant = true;
  check_prepares(heat_op(h));
  h = {};
  h.nchw = true;
  h.heat = {2, 3, 4, 4};
  check_prepares(heat_op(h));
  h = {};
  h.heat = {2, 4, 4};
  refused(heat_op(h), name, "rank 3");
  h = {};
  h.boxes = {2, 5};
  refused(heat_op(h), name, "dimension 1 = 5");
  h = {};
  h.boxes = {3, 4};
  refused(heat_op(h), name, "3 boxes");
  h = {};
  h.heat = {2, 1, 1, 3};
  refused(heat_op(h), name, "at least 2 x 2");
  h = {};
  h.heat = {2, 4, 5, 3};
  refused(heat_op(h), name, "not square");
  h = {};
  h.nchw = true;  // NHWC dims read as NCHW: 4 x 3
  refused(heat_op(h), name, "not square");
  h = {};
  h.quant = true;
  h.box_scale = 0.25f;
  refused(heat_op(h), name, "scale 0.125");
}

namespace {

// ---- GENERATE_PROPOSALS

struct Gp {
  nnhal::Vector<std::uint32_t> scores{1, 2, 2, 2}, deltas{1, 2, 2, 8}, anchors{2, 4}, info{1, 2};
  bool quant = false;
  float anchor_scale = 0.125f;
  std::int32_t info_zp = 0;
  float h_stride = 4, w_stride = 4, iou = 0.3f, min_size = 1;
};

OneOp gp_op(const Gp& g) {
  OneOp m(OperationType::GENERATE_PROPOSALS);
  if (g.quant)
    m.tensor(QA8, g.scores, 0.01f, 100).tensor(QA8, g.deltas, 0.05f, 128).tensor(QS16, g.anchors, g.anchor_scale, 0)
        .tensor(Q16, g.info, 0.125f, g.info_zp);
  else
    m.tensor(F32, g.scores).tensor(F32, g.deltas).tensor(F32, g.anchors).tensor(F32, g.info);
  m.f32(g.h_stride).f32(g.w_stride).ints({-1, -1}).f32(g.iou).f32(g.min_size).flag(false);
  if (g.quant)
    m.output(QA8, 0.01f, 100).output(Q16, 0.125f, 0);
  else
    m.output(F32).output(F32);
  m.output(I32);
  return m;
}

}  // namespace

TEST_CASE("malformed GENERATE_PROPOSALS: ranks, anchor and image shapes, 16-bit quantization, scalars") {
  constexpr const char* name = "GENERATE_PROPOSALS";
  check_prepares(gp_op({}));
  Gp g;
  g.quant = true;
  check_prepares(gp_op(g));
  g = {};
  g.scores = {1, 2, 2};
  refused(gp_op(g), name, "rank 3");
  g = {};
  g.deltas = {1, 2, 2, 8, 1};
  refused(gp_op(g), name, "rank 5");
  g = {};
  g.anchors = {2, 5};
  refused(gp_op(g), name, "dimension 1 = 5");
  g = {};
  g.info = {1, 3};
  refused(gp_op(g), name, "dimension 1 = 3");
  g = {};
  g.quant = true;
  g.anchor_scale = 0.25f;
  refused(gp_op(g), name, "scale 0.125");
  g = {};
  g.quant = true;
  g.info_zp = 1;
  refused(gp_op(g), name, "zero point 0");
  g = {};
  g.w_stride = -1;
  refused(gp_op(g), name, "finite and >= 0");
  g = {};
  g.h_stride = kNaN;
  refused(gp_op(g), name, "finite and >= 0");
  g = {};
  g.iou = kNaN;
  refused(gp_op(g), name, "must be finite");
  g = {};
  g.min_size = kInf;
  refused(gp_op(g), name, "must be finite");
}

namespace {

// ---- DETECTION_POSTPROCESSING

struct Dp {
  nnhal::Vector<std::uint32_t> scores{1, 6, 3}, deltas{1, 6, 4}, anchors{6, 4};
  bool half = false, regular = true;
  float scale_y = 10, scale_w = 5, score_threshold = 0, iou = 0.5f;
  std::int32_t max_det = 3, max_classes = 1, max_per_class = 1;
};

OneOp dp_op(const Dp& d) {
  OneOp m(OperationType::DETECTION_POSTPROCESSING);
  const OperandType t = d.half ? F16 : F32;
  auto f = [&](float v) -> OneOp& {
    return d.half ? m.scalar<OperandType::FLOAT16>(static_cast<Half>(v)) : m.f32(v);
  };
  m.tensor(t, d.scores).tensor(t, d.deltas).tensor(t, d.anchors);
  f(d.scale_y), f(10), f(5), f(d.scale_w);
  m.flag(d.regular).ints({d.max_det, d.max_classes, d.max_per_class});
  f(d.score_threshold), f(d.iou);
  m.flag(false);
  m.output(t).output(t).output(I32).output(I32);
  return m;
}

}  // namespace

TEST_CASE("malformed DETECTION_POSTPROCESSING: ranks, shapes, scales, thresholds, counts") {
  constexpr const char* name = "DETECTION_POSTPROCESSING";
  check_prepares(dp_op({}));
  Dp d;
  d.half = true;
  d.regular = false;
  d.max_per_class = 0;  // only read by regular NMS
  check_prepares(dp_op(d));
  d = {};
  d.scores = {6, 3};
  refused(dp_op(d), name, "rank 2");
  d = {};
  d.anchors = {6, 5};
  refused(dp_op(d), name, "dimension 1 = 5");
  d = {};
  d.scores = {1, 6, 1};
  refused(dp_op(d), name, "more than one needed");
  d = {};
  d.deltas = {1, 6, 3};
  refused(dp_op(d), name, "at least 4 needed");
  d = {};
  d.scale_y = 0;
  refused(dp_op(d), name, "scale_y");
  d = {};
  d.half = true;
  d.scale_w = kNaN;
  refused(dp_op(d), name, "scale_w");
  d = {};
  d.score_threshold = -0.5f;
  refused(dp_op(d), name, "score_threshold");
  d = {};
  d.iou = kNaN;
  refused(dp_op(d), name, "iou_threshold");
  d = {};
  d.max_det = 0;
  refused(dp_op(d), name, "max_num_detections");
  d = {};
  d.max_per_class = 0;
  refused(dp_op(d), name, "max_detections_per_class");
  d = {};
  d.regular = false;
  d.max_classes = -2;
  refused(dp_op(d), name, "max_classes_per_detection");
}

namespace {

// ---- LSH_PROJECTION

struct Lsh {
  nnhal::Vector<std::uint32_t> hash{4, 2}, input{3, 2}, weight{3};
  std::int32_t type = 2;
};

OneOp lsh_op(const Lsh& l) {
  OneOp m(OperationType::LSH_PROJECTION);
  m.tensor(F32, l.hash).tensor(I32, l.input).tensor(F32, l.weight).ints({l.type});
  m.output(I32);
  return m;
}

// ---- RANDOM_MULTINOMIAL

struct Mn {
  nnhal::Vector<std::uint32_t> logits{2, 5}, seeds{2};
  std::int32_t samples = 4;
};

OneOp mn_op(const Mn& n) {
  OneOp m(OperationType::RANDOM_MULTINOMIAL);
  m.tensor(F32, n.logits).ints({n.samples}).tensor(I32, n.seeds);
  m.output(I32);
  return m;
}

}  // namespace

TEST_CASE("malformed LSH_PROJECTION: hash shape, bit count, type, weight rank") {
  constexpr const char* name = "LSH_PROJECTION";
  for (std::int32_t type : {1, 2, 3}) {
    Lsh l;
    l.type = type;
    check_prepares(lsh_op(l));
  }
  Lsh l;
  l.hash = {8};
  refused(lsh_op(l), name, "rank 1");
  l = {};
  l.hash = {4, 33};
  refused(lsh_op(l), name, "at most 32");
  l = {};
  l.type = 0;
  refused(lsh_op(l), name, "type");
  l = {};
  l.type = 4;
  refused(lsh_op(l), name, "type");
  l = {};
  l.weight = {3, 1};
  refused(lsh_op(l), name, "1-D");
}

TEST_CASE("malformed RANDOM_MULTINOMIAL: logits rank, sample count, seeds shape") {
  constexpr const char* name = "RANDOM_MULTINOMIAL";
  check_prepares(mn_op({}));
  Mn n;
  n.logits = {2, 5, 1};
  refused(mn_op(n), name, "rank 3");
  n = {};
  n.samples = 0;
  refused(mn_op(n), name, "num_samples");
  n = {};
  n.samples = -3;
  refused(mn_op(n), name, "num_samples");
  n = {};
  n.seeds = {3};
  refused(mn_op(n), name, "seeds");
  n = {};
  n.seeds = {2, 1};
  refused(mn_op(n), name, "seeds");
}

}  // namespace nnhal::test::malformed::detection_suite
