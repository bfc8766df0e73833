// Kernels of BOX_WITH_NMS_LIMIT and AXIS_ALIGNED_BBOX_TRANSFORM
// (nnhal/kernels/box_with_nms_limit.hpp, axis_aligned_bbox_transform.hpp): hand-checked cases
// derived from the definition (hard / linear / gaussian suppression, thresholds, the detection
// limit, the class-then-score order, equal scores, batches, the hard kernel's zero scores kept
// by a zero NMS score threshold; box decoding and clipping), random properties of the NMS
// result on every type, and the runtime errors. BOX_WITH_NMS_LIMIT runs with its planned
// scratch, as the executor runs it (infer at execution, then the kernel).
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "nnhal/kernels/axis_aligned_bbox_transform.hpp"
#include "nnhal/kernels/box_with_nms_limit.hpp"
#include "ops/kernel_test_util.hpp"
#include "support/run_model.hpp"

using nnhal::Dims;
using nnhal::Half;
using nnhal::OperandType;
using nnhal::OperationType;
using nnhal::RtOperand;
using nnhal::element_t;
using nnhal::test::KernelNode;
using nnhal::test::kernels_of;

namespace {

/// One BOX_WITH_NMS_LIMIT node run as the executor runs a dynamic node: select (which plans the
/// scratch), then infer and the kernel with the scratch and the stored parameters.
struct NmsNode {
  KernelNode node;
  std::vector<RtOperand> table;
  nnhal::Vector<std::uint32_t> ins, outs;
  alignas(16) std::array<std::byte, nnhal::kNodeParamBytes> params{};
  std::vector<std::uint64_t> scratch;
  std::vector<std::vector<std::uint64_t>> out_buffers;

  nnhal::Status run() {
    const auto& impl = kernels_of<OperationType::BOX_WITH_NMS_LIMIT>();
    table.clear(), ins.clear(), outs.clear();
    for (std::uint32_t i = 0; i < 9; ++i) table.push_back(node.in(i)), ins.push_back(i);
    for (std::uint32_t i = 0; i < 4; ++i) table.push_back(node.out(i)), outs.push_back(9 + i);
    nnhal::KernelPrepare setup{std::span<std::byte, nnhal::kNodeParamBytes>(params)};
    auto k = impl.select(nnhal::NodeIO(table.data(), ins, outs), setup);
    if (!k) return std::move(k.error());
    scratch.assign(setup.workspace_bytes / 8 + 1, 0);
    const nnhal::NodeIO io(table.data(), ins, outs, params.data(), reinterpret_cast<std::byte*>(scratch.data()));
    if (auto s = impl.infer(io); !s) return s;
    for (std::uint32_t o : outs) {
      out_buffers.emplace_back(table[o].required_bytes() / 8 + 1);
      table[o].data = reinterpret_cast<std::byte*>(out_buffers.back().data());
      table[o].length = table[o].required_bytes();
    }
    return (*k)(io);
  }
  const RtOperand& out(std::size_t i) const { return table[outs[i]]; }
  template <OperandType T>
  std::vector<element_t<T>> values(std::size_t i) const {
    const RtOperand& op = out(i);
    std::vector<element_t<T>> v(static_cast<std::size_t>(op.dims.element_count()));
    if (!v.empty()) std::memcpy(v.data(), op.data, v.size() * sizeof(element_t<T>));
    return v;
  }
};

struct NmsArgs {
  float score_threshold = 0.1f;
  std::int32_t max_detections = -1;
  std::int32_t kernel = 0;
  float iou_threshold = 0.5f, sigma = 1.0f, nms_score_threshold = 0.01f;
};

/// Float32 node: scores [rois, classes], boxes [rois, classes * 4], batch [rois].
void build_f32(NmsNode& n, std::uint32_t rois, std::uint32_t classes, const std::vector<float>& scores,
               const std::vector<float>& boxes, const std::vector<std::int32_t>& batch, const NmsArgs& a) {
  n.node.tensor<OperandType::TENSOR_FLOAT32>(Dims{rois, classes}, scores);
  n.node.tensor<OperandType::TENSOR_FLOAT32>(Dims{rois, classes * 4}, boxes);
  n.node.tensor<OperandType::TENSOR_INT32>(Dims{rois}, batch);
  n.node.scalar<OperandType::FLOAT32>(a.score_threshold);
  n.node.scalar<OperandType::INT32>(a.max_detections);
  n.node.scalar<OperandType::INT32>(a.kernel);
  n.node.scalar<OperandType::FLOAT32>(a.iou_threshold);
  n.node.scalar<OperandType::FLOAT32>(a.sigma);
  n.node.scalar<OperandType::FLOAT32>(a.nms_score_threshold);
  n.node.output(OperandType::TENSOR_FLOAT32);
  n.node.output(OperandType::TENSOR_FLOAT32);
  n.node.output(OperandType::TENSOR_INT32);
  n.node.output(OperandType::TENSOR_INT32);
}

// Three ROIs, classes {background, 1}: A = (0,0,10,10) 0.9, B = (1,1,11,11) 0.8 (IoU with A =
// 81 / 119), C = (20,20,30,30) 0.7 (disjoint).
const std::vector<float> kScores3 = {0.0f, 0.9f, 0.0f, 0.8f, 0.0f, 0.7f};
const std::vector<float> kBoxes3 = {0, 0, 1, 1, 0, 0, 10, 10, 0, 0, 1, 1, 1, 1, 11, 11, 0, 0, 1, 1, 20, 20, 30, 30};
constexpr float kIouAB = 81.0f / 119.0f;

}  // namespace

TEST_CASE("BOX_WITH_NMS_LIMIT: hard NMS suppresses the overlapping box") {
  NmsNode n;
  build_f32(n, 3, 2, kScores3, kBoxes3, {0, 0, 0}, {});
  REQUIRE(n.run());
  CHECK(n.out(0).dims == Dims{2});
  CHECK(n.out(1).dims == Dims{2, 4});
  CHECK(n.values<OperandType::TENSOR_FLOAT32>(0) == std::vector<float>{0.9f, 0.7f});
  CHECK(n.values<OperandType::TENSOR_FLOAT32>(1) == std::vector<float>{0, 0, 10, 10, 20, 20, 30, 30});
  CHECK(n.values<OperandType::TENSOR_INT32>(2) == std::vector<std::int32_t>{1, 1});
  CHECK(n.values<OperandType::TENSOR_INT32>(3) == std::vector<std::int32_t>{0, 0});
}

TEST_CASE("BOX_WITH_NMS_LIMIT: with the hard kernel a zero NMS score threshold keeps suppressed boxes at 0") {
  NmsArgs a;
  a.nms_score_threshold = 0.0f;  // 0 < 0 is false: B stays with score 0, last
  NmsNode n;
  build_f32(n, 3, 2, kScores3, kBoxes3, {0, 0, 0}, a);
  REQUIRE(n.run());
  CHECK(n.values<OperandType::TENSOR_FLOAT32>(0) == std::vector<float>{0.9f, 0.7f, 0.0f});
  CHECK(n.values<OperandType::TENSOR_FLOAT32>(1) == std::vector<float>{0, 0, 10, 10, 20, 20, 30, 30, 1, 1, 11, 11});
}

TEST_CASE("BOX_WITH_NMS_LIMIT: linear and gaussian kernels decay the overlapping score") {
  {
    NmsArgs a;
    a.kernel = 1;
    NmsNode n;
    build_f32(n, 3, 2, kScores3, kBoxes3, {0, 0, 0}, a);
    REQUIRE(n.run());
    const float b = 0.8f * (1.0f - kIouAB);  // 0.256 < 0.7: after C
    const auto s = n.values<OperandType::TENSOR_FLOAT32>(0);
    REQUIRE(s.size() == 3);
    CHECK(s[0] == 0.9f);
    CHECK(s[1] == 0.7f);
    CHECK(s[2] == doctest::Approx(b).epsilon(1e-6));
  }
  {
    NmsArgs a;
    a.kernel = 2;
    a.sigma = 0.5f;
    NmsNode n;
    build_f32(n, 3, 2, kScores3, kBoxes3, {0, 0, 0}, a);
    REQUIRE(n.run());
    const float b = 0.8f * std::exp(-kIouAB * kIouAB / 0.5f);  // about 0.317
    const auto s = n.values<OperandType::TENSOR_FLOAT32>(0);
    REQUIRE(s.size() == 3);
    CHECK(s[2] == doctest::Approx(b).epsilon(1e-6));
    // C (0.7) is disjoint from A: its score is unchanged (exp(0) = 1).
    CHECK(s[1] == 0.7f);
  }
}

TEST_CASE("BOX_WITH_NMS_LIMIT: score threshold, detection limit, class order, equal scores, batches") {
  {  // score threshold 0.75 drops C (and B is suppressed)
    NmsArgs a;
    a.score_threshold = 0.75f;
    NmsNode n;
    build_f32(n, 3, 2, kScores3, kBoxes3, {0, 0, 0}, a);
    REQUIRE(n.run());
    CHECK(n.values<OperandType::TENSOR_FLOAT32>(0) == std::vector<float>{0.9f});
  }
  {  // max_detections 1
    NmsArgs a;
    a.max_detections = 1;
    NmsNode n;
    build_f32(n, 3, 2, kScores3, kBoxes3, {0, 0, 0}, a);
    REQUIRE(n.run());
    CHECK(n.values<OperandType::TENSOR_FLOAT32>(0) == std::vector<float>{0.9f});
  }
  {  // three classes: class 2 scores higher, but class 1 comes first; the limit keeps the top 2
    // overall (0.95 of class 2 and 0.6 of class 1), then orders them by class.
    const std::vector<float> scores = {0, 0.6f, 0.95f, 0, 0.5f, 0.3f};
    const std::vector<float> boxes = {0, 0, 1, 1, 0, 0, 5, 5, 10, 10, 15, 15, 0, 0, 1, 1, 20, 20, 25, 25, 30, 30, 35, 35};
    NmsArgs a;
    a.max_detections = 2;
    NmsNode n;
    build_f32(n, 2, 3, scores, boxes, {0, 0}, a);
    REQUIRE(n.run());
    CHECK(n.values<OperandType::TENSOR_FLOAT32>(0) == std::vector<float>{0.6f, 0.95f});
    CHECK(n.values<OperandType::TENSOR_INT32>(2) == std::vector<std::int32_t>{1, 2});
    CHECK(n.values<OperandType::TENSOR_FLOAT32>(1) == std::vector<float>{0, 0, 5, 5, 10, 10, 15, 15});
  }
  {  // equal scores on disjoint boxes: the first ROI first
    const std::vector<float> scores = {0, 0.5f, 0, 0.5f, 0, 0.5f};
    const std::vector<float> boxes = {0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 5, 5, 6, 6, 0, 0, 1, 1, 10, 10, 11, 11};
    NmsNode n;
    build_f32(n, 3, 2, scores, boxes, {0, 0, 0}, {});
    REQUIRE(n.run());
    CHECK(n.values<OperandType::TENSOR_FLOAT32>(1) == std::vector<float>{0, 0, 1, 1, 5, 5, 6, 6, 10, 10, 11, 11});
  }
  {  // two images: each suppressed and limited on its own; batch indices carried over
    NmsArgs a;
    a.max_detections = 1;
    NmsNode n;
    build_f32(n, 3, 2, kScores3, kBoxes3, {0, 0, 3}, a);
    REQUIRE(n.run());
    CHECK(n.values<OperandType::TENSOR_FLOAT32>(0) == std::vector<float>{0.9f, 0.7f});
    CHECK(n.values<OperandType::TENSOR_INT32>(3) == std::vector<std::int32_t>{0, 3});
  }
  {  // no ROIs
    NmsNode n;
    build_f32(n, 0, 2, {}, {}, {}, {});
    REQUIRE(n.run());
    CHECK(n.out(0).dims == Dims{0});
    CHECK(n.out(1).dims == Dims{0, 4});
  }
}

TEST_CASE("BOX_WITH_NMS_LIMIT: quantized scores and 16-bit boxes") {
  for (bool is_signed : {false, true}) {
    NmsNode n;
    const float scale = 0.01f;
    const std::int32_t zp = is_signed ? -100 : 10;
    std::vector<float> boxes;
    std::vector<std::uint16_t> qboxes;
    for (float v : kBoxes3) qboxes.push_back(static_cast<std::uint16_t>(v * 8));
    auto q = [&](float s) { return static_cast<int>(std::lround(s / scale)) + zp; };
    if (is_signed) {
      std::vector<std::int8_t> s;
      for (float v : kScores3) s.push_back(static_cast<std::int8_t>(q(v)));
      n.node.tensor<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>(Dims{3, 2}, s, scale, zp);
    } else {
      std::vector<std::uint8_t> s;
      for (float v : kScores3) s.push_back(static_cast<std::uint8_t>(q(v)));
      n.node.tensor<OperandType::TENSOR_QUANT8_ASYMM>(Dims{3, 2}, s, scale, zp);
    }
    const OperandType t = is_signed ? OperandType::TENSOR_QUANT8_ASYMM_SIGNED : OperandType::TENSOR_QUANT8_ASYMM;
    n.node.tensor<OperandType::TENSOR_QUANT16_ASYMM>(Dims{3, 8}, qboxes, 0.125f, 0);
    n.node.tensor<OperandType::TENSOR_INT32>(Dims{3}, {0, 0, 0});
    n.node.scalar<OperandType::FLOAT32>(0.1f);
    n.node.scalar<OperandType::INT32>(-1);
    n.node.scalar<OperandType::INT32>(0);
    n.node.scalar<OperandType::FLOAT32>(0.5f);
    n.node.scalar<OperandType::FLOAT32>(1.0f);
    n.node.scalar<OperandType::FLOAT32>(0.01f);
    n.node.output(t, scale, zp);
    n.node.output(OperandType::TENSOR_QUANT16_ASYMM, 0.125f, 0);
    n.node.output(OperandType::TENSOR_INT32);
    n.node.output(OperandType::TENSOR_INT32);
    REQUIRE(n.run());
    REQUIRE(n.out(0).dims == Dims{2});
    if (is_signed) {
      CHECK(n.values<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>(0) ==
            std::vector<std::int8_t>{static_cast<std::int8_t>(q(0.9f)), static_cast<std::int8_t>(q(0.7f))});
    } else {
      CHECK(n.values<OperandType::TENSOR_QUANT8_ASYMM>(0) ==
            std::vector<std::uint8_t>{static_cast<std::uint8_t>(q(0.9f)), static_cast<std::uint8_t>(q(0.7f))});
    }
    CHECK(n.values<OperandType::TENSOR_QUANT16_ASYMM>(1) == std::vector<std::uint16_t>{0, 0, 80, 80, 160, 160, 240, 240});
  }
}

TEST_CASE("BOX_WITH_NMS_LIMIT: random properties (hard NMS, float32 and float16)") {
  std::mt19937 rng(11);
  auto uni = [&](float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng); };
  for (int iter = 0; iter < 200; ++iter) {
    CAPTURE(iter);
    const auto rois = static_cast<std::uint32_t>(std::uniform_int_distribution<int>(1, 12)(rng));
    const auto classes = static_cast<std::uint32_t>(std::uniform_int_distribution<int>(2, 4)(rng));
    std::vector<float> scores(std::size_t{rois} * classes), boxes;
    for (float& s : scores) s = std::round(uni(0, 1) * 64) / 64;  // exact in half, some ties
    for (std::size_t i = 0; i < std::size_t{rois} * classes; ++i) {
      const float x = std::round(uni(0, 20)), y = std::round(uni(0, 20));
      boxes.insert(boxes.end(), {x, y, x + std::round(uni(0, 10)), y + std::round(uni(0, 10))});
    }
    std::vector<std::int32_t> batch(rois);
    const std::uint32_t split = std::uniform_int_distribution<std::uint32_t>(0, rois)(rng);
    for (std::uint32_t r = 0; r < rois; ++r) batch[r] = r < split ? 0 : 1;
    NmsArgs a;
    a.score_threshold = 0.3125f;  // thresholds exact in float16
    a.max_detections = std::uniform_int_distribution<int>(-1, 5)(rng);
    a.iou_threshold = 0.375f;
    a.nms_score_threshold = 0.0625f;
    NmsNode n;
    build_f32(n, rois, classes, scores, boxes, batch, a);
    REQUIRE(n.run());
    const auto s = n.values<OperandType::TENSOR_FLOAT32>(0);
    const auto b = n.values<OperandType::TENSOR_FLOAT32>(1);
    const auto c = n.values<OperandType::TENSOR_INT32>(2);
    const auto bi = n.values<OperandType::TENSOR_INT32>(3);
    std::size_t per_batch[2] = {0, 0};
    for (std::size_t i = 0; i < s.size(); ++i) {
      CHECK(s[i] > 0.3125f);
      CHECK(c[i] >= 1);
      CHECK(c[i] < static_cast<std::int32_t>(classes));
      ++per_batch[bi[i]];
      if (i > 0) {
        CHECK(bi[i] >= bi[i - 1]);
        if (bi[i] == bi[i - 1]) {
          CHECK(c[i] >= c[i - 1]);
          if (c[i] == c[i - 1]) CHECK(s[i] <= s[i - 1]);
        }
      }
      for (std::size_t j = 0; j < i; ++j)  // kept boxes of one image and class overlap little
        if (bi[i] == bi[j] && c[i] == c[j])
          CHECK(nnhal::kernels::box_with_nms_limit::iou(&b[i * 4], &b[j * 4]) < 0.375f);
    }
    if (a.max_detections >= 0)
      for (std::size_t k : per_batch) CHECK(k <= static_cast<std::size_t>(a.max_detections));
    // The same data in float16 gives the same selection.
    NmsNode h;
    std::vector<Half> hs, hb;
    for (float v : scores) hs.push_back(Half(v));
    for (float v : boxes) hb.push_back(Half(v));
    h.node.tensor<OperandType::TENSOR_FLOAT16>(Dims{rois, classes}, hs);
    h.node.tensor<OperandType::TENSOR_FLOAT16>(Dims{rois, classes * 4}, hb);
    h.node.tensor<OperandType::TENSOR_INT32>(Dims{rois}, batch);
    h.node.scalar<OperandType::FLOAT16>(Half(a.score_threshold));
    h.node.scalar<OperandType::INT32>(a.max_detections);
    h.node.scalar<OperandType::INT32>(0);
    h.node.scalar<OperandType::FLOAT16>(Half(a.iou_threshold));
    h.node.scalar<OperandType::FLOAT16>(Half(1.0f));
    h.node.scalar<OperandType::FLOAT16>(Half(a.nms_score_threshold));
    for (OperandType t : {OperandType::TENSOR_FLOAT16, OperandType::TENSOR_FLOAT16, OperandType::TENSOR_INT32,
                          OperandType::TENSOR_INT32})
      h.node.output(t);
    REQUIRE(h.run());
    CHECK(h.values<OperandType::TENSOR_INT32>(2) == c);
    CHECK(h.values<OperandType::TENSOR_INT32>(3) == bi);
    const auto hsv = h.values<OperandType::TENSOR_FLOAT16>(0);
    REQUIRE(hsv.size() == s.size());
    for (std::size_t i = 0; i < s.size(); ++i) CHECK(static_cast<float>(hsv[i]) == s[i]);
  }
}

TEST_CASE("BOX_WITH_NMS_LIMIT: runtime errors") {
  auto fails = [](std::vector<float> boxes, std::vector<std::int32_t> batch, NmsArgs a, std::uint32_t classes = 2) {
    NmsNode n;
    const auto rois = static_cast<std::uint32_t>(batch.size());
    build_f32(n, rois, classes, std::vector<float>(std::size_t{rois} * classes, 0.5f), boxes, batch, a);
    return !n.run();
  };
  const std::vector<float> good = {0, 0, 1, 1, 0, 0, 2, 2, 0, 0, 1, 1, 3, 3, 4, 4};
  CHECK_FALSE(fails(good, {0, 0}, {}));
  CHECK(fails({1, 0, 0, 1, 0, 0, 2, 2, 0, 0, 1, 1, 3, 3, 4, 4}, {0, 0}, {}));  // inverted x
  CHECK(fails({0, std::numeric_limits<float>::quiet_NaN(), 1, 1, 0, 0, 2, 2, 0, 0, 1, 1, 3, 3, 4, 4}, {0, 0}, {}));
  CHECK(fails(good, {-1, -1}, {}));
  CHECK(fails({0, 0, 1, 1, 0, 0, 2, 2, 0, 0, 1, 1, 3, 3, 4, 4, 0, 0, 1, 1, 0, 0, 1, 1}, {0, 1, 0}, {}));
  NmsArgs k3;
  k3.kernel = 3;
  CHECK(fails(good, {0, 0}, k3));
  CHECK(fails({0, 0, 1, 1, 0, 0, 1, 1}, {0, 0}, {}, 1));  // one class
}

TEST_CASE("AXIS_ALIGNED_BBOX_TRANSFORM: decoding and clipping by hand") {
  // ROI (2, 2, 6, 10): w 4, h 8, centre (4, 6). Image 12 high, 8 wide.
  // class 0: zero deltas -> the ROI. class 1: dx 0.5 (+2), dy -0.25 (-2), dw ln 2 (w 8),
  // dh 0 -> (2, 0, 10, 8) clipped to (2, 0, 8, 8).
  const float ln2 = std::log(2.0f);
  KernelNode node;
  node.tensor<OperandType::TENSOR_FLOAT32>(Dims{1, 4}, {2, 2, 6, 10});
  node.tensor<OperandType::TENSOR_FLOAT32>(Dims{1, 8}, {0, 0, 0, 0, 0.5f, -0.25f, ln2, 0});
  node.tensor<OperandType::TENSOR_INT32>(Dims{1}, {1});
  node.tensor<OperandType::TENSOR_FLOAT32>(Dims{2, 2}, {1, 1, 12, 8});
  node.output(OperandType::TENSOR_FLOAT32);
  REQUIRE(node.run(kernels_of<OperationType::AXIS_ALIGNED_BBOX_TRANSFORM>()));
  REQUIRE(node.out(0).dims == Dims{1, 8});
  const auto v = node.values<OperandType::TENSOR_FLOAT32>(0);
  const std::vector<float> want = {2, 2, 6, 10, 2, 0, 8, 8};
  for (std::size_t i = 0; i < want.size(); ++i) CHECK(v[i] == doctest::Approx(want[i]).epsilon(1e-6));

  // The same in 16-bit ROIs / image info (eighths) with 8-bit deltas (scale 0.25, zero point
  // 128: 0.5 -> 130, -0.25 -> 127; dw 0.75 -> 131: w 4 e^0.75 = 8.468 around 6 -> (1.766, 10.234),
  // clipped to (1.766, 8), in eighths round(14.13) = 14 and 64).
  KernelNode q;
  q.tensor<OperandType::TENSOR_QUANT16_ASYMM>(Dims{1, 4}, {16, 16, 48, 80}, 0.125f, 0);
  q.tensor<OperandType::TENSOR_QUANT8_ASYMM>(Dims{1, 8}, {128, 128, 128, 128, 130, 127, 131, 128}, 0.25f, 128);
  q.tensor<OperandType::TENSOR_INT32>(Dims{1}, {0});
  q.tensor<OperandType::TENSOR_QUANT16_ASYMM>(Dims{1, 2}, {96, 64}, 0.125f, 0);
  q.output(OperandType::TENSOR_QUANT16_ASYMM, 0.125f, 0);
  REQUIRE(q.run(kernels_of<OperationType::AXIS_ALIGNED_BBOX_TRANSFORM>()));
  CHECK(q.values<OperandType::TENSOR_QUANT16_ASYMM>(0) == std::vector<std::uint16_t>{16, 16, 48, 80, 14, 0, 64, 64});
}

TEST_CASE("AXIS_ALIGNED_BBOX_TRANSFORM: zero ROIs and runtime errors") {
  auto run = [](std::vector<float> roi, std::int32_t batch) {
    KernelNode node;
    const auto n = static_cast<std::uint32_t>(roi.size() / 4);
    node.tensor<OperandType::TENSOR_FLOAT32>(Dims{n, 4}, roi);
    node.tensor<OperandType::TENSOR_FLOAT32>(Dims{n, 4}, std::vector<float>(roi.size(), 0.0f));
    node.tensor<OperandType::TENSOR_INT32>(Dims{n}, std::vector<std::int32_t>(n, batch));
    node.tensor<OperandType::TENSOR_FLOAT32>(Dims{1, 2}, {10, 10});
    node.output(OperandType::TENSOR_FLOAT32);
    return node.run(kernels_of<OperationType::AXIS_ALIGNED_BBOX_TRANSFORM>());
  };
  CHECK(run({}, 0));
  CHECK(run({1, 1, 2, 2}, 0));
  CHECK_FALSE(run({1, 1, 1, 2}, 0));  // empty width (the reference needs x1 < x2)
  CHECK_FALSE(run({1, 3, 2, 2}, 0));  // inverted y
  CHECK_FALSE(run({1, 1, 2, std::numeric_limits<float>::quiet_NaN()}, 0));
  CHECK_FALSE(run({1, 1, 2, 2}, 1));  // batch out of range
  CHECK_FALSE(run({1, 1, 2, 2}, -1));
}

TEST_CASE("BOX_WITH_NMS_LIMIT: its data inputs are value-read; run by the executor, the output size follows the data") {
  CHECK(nnhal::operation_info<OperationType::BOX_WITH_NMS_LIMIT>().value_inputs == 0b111u);
  using nnhal::Model;
  using nnhal::Operand;
  using nnhal::OperandLifeTime;
  Model model;
  auto add = [&](OperandType t, nnhal::Vector<std::uint32_t> dims, OperandLifeTime life) {
    Operand op;
    op.type = t;
    op.dimensions = std::move(dims);
    op.lifetime = life;
    model.main.operands.push_back(op);
    return static_cast<std::uint32_t>(model.main.operands.size() - 1);
  };
  auto constant = [&](OperandType t, auto v) {
    const auto at = static_cast<std::uint32_t>((model.operandValues.size() + 3) / 4 * 4);
    model.operandValues.resize(at + sizeof v, 0);
    std::memcpy(model.operandValues.data() + at, &v, sizeof v);
    const std::uint32_t i = add(t, {}, OperandLifeTime::CONSTANT_COPY);
    model.main.operands[i].location = {0, at, static_cast<std::uint32_t>(sizeof v)};
    return i;
  };
  nnhal::Vector<std::uint32_t> ins = {add(OperandType::TENSOR_FLOAT32, {3, 2}, OperandLifeTime::SUBGRAPH_INPUT),
                                    add(OperandType::TENSOR_FLOAT32, {3, 8}, OperandLifeTime::SUBGRAPH_INPUT),
                                    add(OperandType::TENSOR_INT32, {3}, OperandLifeTime::SUBGRAPH_INPUT)};
  model.main.inputIndexes = ins;
  ins.push_back(constant(OperandType::FLOAT32, 0.1f));
  ins.push_back(constant(OperandType::INT32, std::int32_t{-1}));
  ins.push_back(constant(OperandType::INT32, std::int32_t{0}));
  ins.push_back(constant(OperandType::FLOAT32, 0.5f));
  ins.push_back(constant(OperandType::FLOAT32, 1.0f));
  ins.push_back(constant(OperandType::FLOAT32, 0.01f));
  nnhal::Vector<std::uint32_t> outs;
  for (OperandType t : {OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT32, OperandType::TENSOR_INT32,
                        OperandType::TENSOR_INT32})
    outs.push_back(add(t, {}, OperandLifeTime::SUBGRAPH_OUTPUT));
  model.main.outputIndexes = outs;
  model.main.operations.push_back(nnhal::Operation{OperationType::BOX_WITH_NMS_LIMIT, ins, outs});
  for (auto& op : model.main.operands) op.numberOfConsumers = 0;
  for (std::uint32_t i : ins) ++model.main.operands[i].numberOfConsumers;

  using Set = nnhal::OpSet<OperationType::BOX_WITH_NMS_LIMIT>;
  const std::vector<nnhal::test::Arg> inputs = {nnhal::test::arg_of(kScores3), nnhal::test::arg_of(kBoxes3),
                                                nnhal::test::arg_of(std::vector<std::int32_t>{0, 0, 0})};
  auto r = nnhal::test::run_model<Set>(model, inputs,
                                       {nnhal::test::output_of(8), nnhal::test::output_of(32),
                                        nnhal::test::output_of(8), nnhal::test::output_of(8)});
  INFO("status: " << (r.status ? std::string("ok") : std::string(r.status.error().message())));
  REQUIRE(r.status);
  REQUIRE(r.shapes.size() == 4);
  CHECK(r.shapes[0].dimensions == std::vector<std::uint32_t>{2});
  CHECK(r.shapes[1].dimensions == std::vector<std::uint32_t>{2, 4});
  CHECK(r.output<float>(0) == std::vector<float>{0.9f, 0.7f});
  CHECK(r.guards_intact);
  // The same with room for one detection only: OUTPUT_INSUFFICIENT_SIZE, with the needed shape.
  auto small = nnhal::test::run_model<Set>(model, inputs,
                                           {nnhal::test::output_of(4), nnhal::test::output_of(16),
                                            nnhal::test::output_of(4), nnhal::test::output_of(4)});
  REQUIRE_FALSE(small.status);
  CHECK(small.status.error().status() == nnhal::ErrorStatus::OUTPUT_INSUFFICIENT_SIZE);
  REQUIRE(small.shapes.size() == 4);
  CHECK(small.shapes[0].dimensions == std::vector<std::uint32_t>{2});
  CHECK_FALSE(small.shapes[0].isSufficient);
  CHECK(small.guards_intact);
}
