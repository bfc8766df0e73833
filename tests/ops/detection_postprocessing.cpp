// Kernels of the detection family HEATMAP_MAX_KEYPOINT, GENERATE_PROPOSALS and
// DETECTION_POSTPROCESSING (nnhal/kernels/heatmap_max_keypoint.hpp, generate_proposals.hpp,
// detection_postprocessing.hpp), from the definitions:
//  - heatmaps sampled from quadratic peaks, whose second-order fit recovers the peak exactly
//    (interior peaks, peaks beyond the border through the mirrored neighbourhood, flat maps),
//    both layouts; float16 and the 8-bit types against the float32 kernel on the same values;
//  - proposals worked out by hand (anchors over the grid, deltas, clipping to each image,
//    the minimum size, the pre- and post-NMS limits, suppression by IoU, the image index), NCHW
//    against NHWC on random data, float16 and 8-bit against float32 on the same values;
//  - SSD decoding worked out by hand, regular and fast NMS on a case worked out by hand (per
//    class suppression, the limits, the background label shift, zero padding);
//  - the runtime errors of each. Nodes whose output size depends on the data run with the
//    scratch their select plans, as the executor runs them.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "nnhal/kernels/detection_postprocessing.hpp"
#include "nnhal/kernels/generate_proposals.hpp"
#include "nnhal/kernels/heatmap_max_keypoint.hpp"
#include "ops/kernel_test_util.hpp"

using nnhal::Dims;
using nnhal::ErrorStatus;
using nnhal::Half;
using nnhal::OperandType;
using nnhal::OperationType;
using nnhal::element_t;
using nnhal::test::KernelNode;
using nnhal::test::kernels_of;

namespace {

constexpr auto F32 = OperandType::TENSOR_FLOAT32;
constexpr auto F16 = OperandType::TENSOR_FLOAT16;
constexpr auto QA8 = OperandType::TENSOR_QUANT8_ASYMM;
constexpr auto QAS8 = OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
constexpr auto Q16 = OperandType::TENSOR_QUANT16_ASYMM;
constexpr auto QS16 = OperandType::TENSOR_QUANT16_SYMM;
constexpr auto I32 = OperandType::TENSOR_INT32;
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

template <OperandType T>
constexpr bool kQuant = T == QA8 || T == QAS8;

/// Values of type E: floats directly, integers as round(v / scale + zp), clamped.
template <class E>
std::vector<E> store(const std::vector<float>& v, float scale = 1, std::int32_t zp = 0) {
  std::vector<E> out;
  for (float x : v) {
    if constexpr (std::is_same_v<E, float> || std::is_same_v<E, Half>) {
      out.push_back(static_cast<E>(x));
    } else {
      const float q = std::round(x / scale + static_cast<float>(zp));
      out.push_back(static_cast<E>(std::clamp(q, static_cast<float>(std::numeric_limits<E>::lowest()),
                                              static_cast<float>(std::numeric_limits<E>::max()))));
    }
  }
  return out;
}

/// The real values of stored elements.
template <class E>
std::vector<float> real(const std::vector<E>& v, float scale = 1, std::int32_t zp = 0) {
  std::vector<float> out;
  for (E x : v) {
    if constexpr (std::is_same_v<E, float> || std::is_same_v<E, Half>)
      out.push_back(static_cast<float>(x));
    else
      out.push_back(static_cast<float>(static_cast<std::int32_t>(x) - zp) * scale);
  }
  return out;
}

ErrorStatus status_of(const nnhal::Status& s) { return s ? ErrorStatus::NONE : s.error().status(); }

// ---------------------------------------------------------------------------------------------
// HEATMAP_MAX_KEYPOINT

struct Heat {
  std::uint32_t boxes = 1, size = 6, keypoints = 1;
  bool nchw = false;
  std::vector<float> map;    // NHWC [boxes, size, size, keypoints]
  std::vector<float> boxes_xyxy;
};

/// Heatmaps f(y, x) = c - a ((x - x0)^2 + (y - y0)^2) per (box, keypoint).
struct Peak {
  float x0, y0, c, a;
};

Heat quadratic(std::uint32_t size, const std::vector<std::vector<Peak>>& peaks, const std::vector<float>& boxes) {
  Heat h;
  h.boxes = static_cast<std::uint32_t>(peaks.size());
  h.keypoints = static_cast<std::uint32_t>(peaks[0].size());
  h.size = size;
  h.boxes_xyxy = boxes;
  for (std::size_t b = 0; b < h.boxes; ++b)
    for (std::size_t y = 0; y < size; ++y)
      for (std::size_t x = 0; x < size; ++x)
        for (const Peak& p : peaks[b]) {
          const float dx = static_cast<float>(x) - p.x0, dy = static_cast<float>(y) - p.y0;
          h.map.push_back(p.c - p.a * (dx * dx + dy * dy));
        }
  return h;
}

/// The map in the case's layout.
std::vector<float> laid_out(const Heat& h) {
  if (!h.nchw) return h.map;
  std::vector<float> out(h.map.size());
  for (std::size_t b = 0; b < h.boxes; ++b)
    for (std::size_t y = 0; y < h.size; ++y)
      for (std::size_t x = 0; x < h.size; ++x)
        for (std::size_t k = 0; k < h.keypoints; ++k)
          out[((b * h.keypoints + k) * h.size + y) * h.size + x] = h.map[((b * h.size + y) * h.size + x) * h.keypoints + k];
  return out;
}

/// Runs HEATMAP_MAX_KEYPOINT on type T; heatmap quantization (scale, zp), score output (oscale, ozp).
template <OperandType T>
KernelNode heat_node(const Heat& h, float scale = 0.05f, std::int32_t zp = 3, float oscale = 0.05f,
                     std::int32_t ozp = -2) {
  using E = element_t<T>;
  constexpr OperandType B = kQuant<T> ? Q16 : T;
  KernelNode n;
  const Dims d = h.nchw ? Dims{h.boxes, h.keypoints, h.size, h.size} : Dims{h.boxes, h.size, h.size, h.keypoints};
  n.tensor<T>(d, store<E>(laid_out(h), scale, zp), kQuant<T> ? scale : 0.0f, kQuant<T> ? zp : 0);
  n.tensor<B>(Dims{h.boxes, 4}, store<element_t<B>>(h.boxes_xyxy, 0.125f), kQuant<T> ? 0.125f : 0.0f, 0);
  n.scalar<OperandType::BOOL>(h.nchw ? 1 : 0);
  n.output(T, kQuant<T> ? oscale : 0.0f, kQuant<T> ? ozp : 0);
  n.output(B, kQuant<T> ? 0.125f : 0.0f, 0);
  return n;
}

const auto& heat_impl() { return kernels_of<OperationType::HEATMAP_MAX_KEYPOINT>(); }

/// The keypoint of a fit that recovered (x0, y0) in a box (x1, y1, x2, y2) of a size-S map.
float keypoint(float p0, float lo, float hi, std::uint32_t size) {
  return (p0 + 0.5f) / static_cast<float>(size) * (hi - lo) + lo;
}

}  // namespace

TEST_CASE("HEATMAP_MAX_KEYPOINT: a quadratic peak is recovered exactly, both layouts") {
  const Heat base = quadratic(7, {{{2.3f, 3.6f, 5.0f, 0.5f}, {4.8f, 1.2f, 2.0f, 0.25f}}, {{3.0f, 3.0f, 1.0f, 1.0f}, {5.4f, 5.3f, -1.0f, 0.5f}}},
                              {1.0f, 2.0f, 15.0f, 30.0f, 0.0f, 0.0f, 7.0f, 7.0f});
  for (bool nchw : {false, true}) {
    Heat h = base;
    h.nchw = nchw;
    KernelNode n = heat_node<F32>(h);
    REQUIRE(n.run(heat_impl()));
    REQUIRE(n.out(0).dims == Dims{2, 2});
    REQUIRE(n.out(1).dims == Dims{2, 2, 2});
    const auto scores = n.values<F32>(0);
    const auto points = n.values<F32>(1);
    const float peaks[2][2][3] = {{{2.3f, 3.6f, 5.0f}, {4.8f, 1.2f, 2.0f}}, {{3.0f, 3.0f, 1.0f}, {5.4f, 5.3f, -1.0f}}};
    for (std::size_t b = 0; b < 2; ++b)
      for (std::size_t k = 0; k < 2; ++k) {
        const float* box = &h.boxes_xyxy[b * 4];
        CAPTURE(b);
        CAPTURE(k);
        CHECK(scores[b * 2 + k] == doctest::Approx(peaks[b][k][2]).epsilon(1e-5));
        CHECK(points[(b * 2 + k) * 2] == doctest::Approx(keypoint(peaks[b][k][0], box[0], box[2], 7)).epsilon(1e-5));
        CHECK(points[(b * 2 + k) * 2 + 1] == doctest::Approx(keypoint(peaks[b][k][1], box[1], box[3], 7)).epsilon(1e-5));
      }
  }
}

TEST_CASE("HEATMAP_MAX_KEYPOINT: peaks beyond the border, flat and far maps") {
  // Peak left of and above the map: the maximum is at (0, 0); the mirrored neighbourhood is
  // symmetric there, so the position stays at that cell's centre.
  Heat h = quadratic(5, {{{-0.4f, -0.7f, 3.0f, 1.0f}}}, {0.0f, 0.0f, 10.0f, 20.0f});
  KernelNode n = heat_node<F32>(h);
  REQUIRE(n.run(heat_impl()));
  auto points = n.values<F32>(1);
  CHECK(points[0] == doctest::Approx(keypoint(0.0f, 0.0f, 10.0f, 5)));
  CHECK(points[1] == doctest::Approx(keypoint(0.0f, 0.0f, 20.0f, 5)));
  CHECK(n.values<F32>(0)[0] == doctest::Approx(3.0f - 0.16f - 0.49f));
  // The same beyond the bottom-right corner.
  h = quadratic(5, {{{4.6f, 5.9f, 3.0f, 1.0f}}}, {0.0f, 0.0f, 10.0f, 20.0f});
  n = heat_node<F32>(h);
  REQUIRE(n.run(heat_impl()));
  points = n.values<F32>(1);
  CHECK(points[0] == doctest::Approx(keypoint(4.0f, 0.0f, 10.0f, 5)));
  CHECK(points[1] == doctest::Approx(keypoint(4.0f, 0.0f, 20.0f, 5)));
  // A flat map: the first maximum, no refinement (singular fit), the score is the value.
  h = quadratic(4, {{{0.0f, 0.0f, 2.5f, 0.0f}}}, {4.0f, 8.0f, 12.0f, 16.0f});
  n = heat_node<F32>(h);
  REQUIRE(n.run(heat_impl()));
  points = n.values<F32>(1);
  CHECK(points[0] == doctest::Approx(keypoint(0.0f, 4.0f, 12.0f, 4)));
  CHECK(points[1] == doctest::Approx(keypoint(0.0f, 8.0f, 16.0f, 4)));
  CHECK(n.values<F32>(0)[0] == 2.5f);
  // A fit pointing further than 1.5 cells is scaled back to 1.5 along its longer axis.
  h = quadratic(4, {{{1.0f, 1.0f, 1.0f, 1.0f}}}, {0.0f, 0.0f, 4.0f, 4.0f});
  h.map = {0, 0, 0, 0, 0, 1.0f, 0.9f, 0, 0, 0.99f, 0.95f, 0, 0, 0, 0, 0};
  n = heat_node<F32>(h);
  REQUIRE(n.run(heat_impl()));
  points = n.values<F32>(1);
  for (float p : points) {
    CHECK(p >= keypoint(1.0f - 1.5f, 0.0f, 4.0f, 4) - 1e-5f);
    CHECK(p <= keypoint(1.0f + 1.5f, 0.0f, 4.0f, 4) + 1e-5f);
  }
}

namespace {

/// Runs type T on `h` and float32 on T's stored values; outputs must agree to T's quantum.
template <OperandType T>
void heat_against_float(const Heat& h) {
  constexpr float scale = 0.05f, oscale = 0.04f;
  constexpr std::int32_t zp = kQuant<T> ? 7 : 0, ozp = T == QA8 ? 100 : -20;
  using E = element_t<T>;
  KernelNode n = heat_node<T>(h, scale, zp, oscale, ozp);
  REQUIRE(n.run(heat_impl()));
  Heat hf = h;
  hf.map = real(store<E>(h.map, scale, zp), scale, zp);
  KernelNode f = heat_node<F32>(hf);
  REQUIRE(f.run(heat_impl()));
  const auto want_s = f.values<F32>(0), want_p = f.values<F32>(1);
  std::vector<float> got_s, got_p;
  if constexpr (kQuant<T>) {
    got_s = real(n.values<T>(0), oscale, ozp);
    got_p = real(n.values<Q16>(1), 0.125f, 0);
  } else {
    got_s = real(n.values<T>(0));
    got_p = real(n.values<T>(1));
  }
  REQUIRE(got_s.size() == want_s.size());
  REQUIRE(got_p.size() == want_p.size());
  for (std::size_t i = 0; i < want_s.size(); ++i) {
    const float tol = kQuant<T> ? oscale / 2 + 1e-4f : std::abs(want_s[i]) * 1e-3f + 1e-3f;
    CHECK(std::abs(got_s[i] - std::clamp(want_s[i], (-128 - ozp) * oscale, (255 - ozp) * oscale)) <= tol);
  }
  for (std::size_t i = 0; i < want_p.size(); ++i) {
    const float tol = kQuant<T> ? 0.0625f + 1e-4f : std::abs(want_p[i]) * 1e-3f + 1e-3f;
    CHECK(std::abs(got_p[i] - want_p[i]) <= tol);
  }
}

}  // namespace

TEST_CASE_TEMPLATE("HEATMAP_MAX_KEYPOINT: float16 and 8-bit agree with float32 on the same values", TT,
                   std::integral_constant<OperandType, F16>, std::integral_constant<OperandType, QA8>,
                   std::integral_constant<OperandType, QAS8>) {
  std::mt19937 rng(11);
  for (int iter = 0; iter < 20; ++iter) {
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    Heat h;
    h.nchw = iter % 2 == 1;
    h.boxes = 2;
    h.size = 2 + static_cast<std::uint32_t>(iter % 5);
    h.keypoints = 3;
    for (std::size_t i = 0; i < std::size_t{h.boxes} * h.size * h.size * h.keypoints; ++i) h.map.push_back(u(rng) * 5);
    for (std::size_t b = 0; b < h.boxes; ++b) {
      const float x1 = std::round(u(rng) * 80) / 8, y1 = std::round(u(rng) * 80) / 8;
      h.boxes_xyxy.insert(h.boxes_xyxy.end(), {x1, y1, x1 + std::round(u(rng) * 80) / 8, y1 + std::round(u(rng) * 80) / 8});
    }
    CAPTURE(iter);
    heat_against_float<TT::value>(h);
  }
}

TEST_CASE("HEATMAP_MAX_KEYPOINT: bad boxes and maps are refused") {
  const Heat good = quadratic(4, {{{1.0f, 1.0f, 1.0f, 1.0f}}}, {0.0f, 0.0f, 4.0f, 4.0f});
  CHECK(status_of(heat_node<F32>(good).run(heat_impl())) == ErrorStatus::NONE);
  for (const std::vector<float>& box : std::vector<std::vector<float>>{
           {5.0f, 0.0f, 4.0f, 4.0f}, {0.0f, 5.0f, 4.0f, 4.0f}, {kNaN, 0.0f, 4.0f, 4.0f}, {0.0f, 0.0f, kInf, 4.0f}}) {
    Heat h = good;
    h.boxes_xyxy = box;
    CHECK(status_of(heat_node<F32>(h).run(heat_impl())) == ErrorStatus::INVALID_ARGUMENT);
  }
  // A map of size 1, a map that is not square, boxes of the wrong count, 16-bit boxes of another scale.
  Heat one = quadratic(1, {{{0.0f, 0.0f, 1.0f, 1.0f}}}, {0.0f, 0.0f, 4.0f, 4.0f});
  CHECK(status_of(heat_node<F32>(one).run(heat_impl())) == ErrorStatus::INVALID_ARGUMENT);
  KernelNode n = heat_node<F32>(good);
  n.in(0).dims = Dims{1, 4, 2, 2};
  CHECK(status_of(n.run(heat_impl())) == ErrorStatus::INVALID_ARGUMENT);
  n = heat_node<F32>(good);
  n.in(1).dims = Dims{2, 2};
  CHECK(status_of(n.run(heat_impl())) == ErrorStatus::INVALID_ARGUMENT);
  n = heat_node<QA8>(good);
  n.in(1).scale = 0.25f;
  CHECK(status_of(n.run(heat_impl())) == ErrorStatus::INVALID_ARGUMENT);
}

// ---------------------------------------------------------------------------------------------
// GENERATE_PROPOSALS

namespace {

struct Proposals {
  std::uint32_t batches = 1, height = 1, width = 1, anchors = 1;
  bool nchw = false;
  std::vector<float> scores;  // NHWC [b, h, w, anchors]
  std::vector<float> deltas;  // NHWC [b, h, w, anchors * 4]
  std::vector<float> anchors_xyxy;
  std::vector<float> info;  // [b, 2] (height, width)
  float h_stride = 10, w_stride = 10;
  std::int32_t pre_nms = -1, post_nms = -1;
  float iou = 0.5f, min_size = 0;
};

/// NHWC [n, h, w, c] to NCHW.
std::vector<float> to_nchw(const std::vector<float>& v, std::size_t n, std::size_t h, std::size_t w, std::size_t c) {
  std::vector<float> out(v.size());
  for (std::size_t b = 0; b < n; ++b)
    for (std::size_t y = 0; y < h; ++y)
      for (std::size_t x = 0; x < w; ++x)
        for (std::size_t k = 0; k < c; ++k) out[((b * c + k) * h + y) * w + x] = v[((b * h + y) * w + x) * c + k];
  return out;
}

template <OperandType T>
KernelNode proposals_node(const Proposals& p, float sscale = 0.01f, std::int32_t szp = 5, float dscale = 0.05f,
                          std::int32_t dzp = -3) {
  using E = element_t<T>;
  constexpr OperandType A = kQuant<T> ? QS16 : T, B = kQuant<T> ? Q16 : T;
  KernelNode n;
  const std::uint32_t b = p.batches, h = p.height, w = p.width, a = p.anchors;
  const Dims sd = p.nchw ? Dims{b, a, h, w} : Dims{b, h, w, a};
  const Dims dd = p.nchw ? Dims{b, a * 4, h, w} : Dims{b, h, w, a * 4};
  const auto s = p.nchw ? to_nchw(p.scores, b, h, w, a) : p.scores;
  const auto d = p.nchw ? to_nchw(p.deltas, b, h, w, std::size_t{a} * 4) : p.deltas;
  n.tensor<T>(sd, store<E>(s, sscale, szp), kQuant<T> ? sscale : 0.0f, kQuant<T> ? szp : 0);
  n.tensor<T>(dd, store<E>(d, dscale, dzp), kQuant<T> ? dscale : 0.0f, kQuant<T> ? dzp : 0);
  n.tensor<A>(Dims{a, 4}, store<element_t<A>>(p.anchors_xyxy, 0.125f), kQuant<T> ? 0.125f : 0.0f, 0);
  n.tensor<B>(Dims{b, 2}, store<element_t<B>>(p.info, 0.125f), kQuant<T> ? 0.125f : 0.0f, 0);
  constexpr OperandType S = T == F16 ? OperandType::FLOAT16 : OperandType::FLOAT32;
  n.scalar<S>(static_cast<element_t<S>>(p.h_stride));
  n.scalar<S>(static_cast<element_t<S>>(p.w_stride));
  n.scalar<OperandType::INT32>(p.pre_nms);
  n.scalar<OperandType::INT32>(p.post_nms);
  n.scalar<S>(static_cast<element_t<S>>(p.iou));
  n.scalar<S>(static_cast<element_t<S>>(p.min_size));
  n.scalar<OperandType::BOOL>(p.nchw ? 1 : 0);
  n.output(T, kQuant<T> ? sscale : 0.0f, kQuant<T> ? szp : 0);
  n.output(B, kQuant<T> ? 0.125f : 0.0f, 0);
  n.output(I32);
  return n;
}

const auto& proposals_impl() { return kernels_of<OperationType::GENERATE_PROPOSALS>(); }

/// One image, a 1 x 3 grid, one 10 x 10 anchor: ROIs (0,0,10,10), (10,0,20,10), (20,0,30,10).
Proposals row3() {
  Proposals p;
  p.width = 3;
  p.scores = {0.5f, 0.9f, 0.7f};
  p.deltas.assign(12, 0.0f);
  p.anchors_xyxy = {0, 0, 10, 10};
  p.info = {100, 25};  // the third ROI is clipped to x2 = 25 (width 5)
  return p;
}

struct Result {
  std::vector<float> scores, rois;
  std::vector<std::int32_t> batch;
};

Result run_f32(const Proposals& p) {
  KernelNode n = proposals_node<F32>(p);
  REQUIRE(n.run_planned(proposals_impl()));
  return {n.values<F32>(0), n.values<F32>(1), n.values<I32>(2)};
}

}  // namespace

TEST_CASE("GENERATE_PROPOSALS: anchors over the grid, clipping, minimum size, order") {
  Proposals p = row3();
  Result r = run_f32(p);
  CHECK(r.scores == std::vector<float>{0.9f, 0.7f, 0.5f});
  CHECK(r.rois == std::vector<float>{10, 0, 20, 10, 20, 0, 25, 10, 0, 0, 10, 10});
  CHECK(r.batch == std::vector<std::int32_t>{0, 0, 0});
  // The clipped ROI is 5 wide: a minimum size of 6 drops it (width and height must exceed it).
  p.min_size = 6;
  r = run_f32(p);
  CHECK(r.scores == std::vector<float>{0.9f, 0.5f});
  p.min_size = 10;  // no ROI is wider than 10
  r = run_f32(p);
  CHECK(r.scores.empty());
  CHECK(r.rois.empty());
  // An image 15 wide: both x corners of the third ROI clip to 15 (empty, its centre not left of
  // the width), so it is dropped; the second clips to (10, 0, 15, 10).
  p = row3();
  p.info = {100, 15};
  r = run_f32(p);
  CHECK(r.scores == std::vector<float>{0.9f, 0.5f});
  CHECK(r.rois == std::vector<float>{10, 0, 15, 10, 0, 0, 10, 10});
}

TEST_CASE("GENERATE_PROPOSALS: deltas, suppression, pre- and post-NMS limits") {
  // dx = 0.5 moves the first ROI to (5, 0, 15, 10): IoU with (10, 0, 20, 10) is 50 / 150.
  Proposals p = row3();
  p.deltas[0] = 0.5f;
  p.iou = 0.3f;
  Result r = run_f32(p);
  CHECK(r.scores == std::vector<float>{0.9f, 0.7f});
  p.iou = 0.4f;
  r = run_f32(p);
  CHECK(r.scores == std::vector<float>{0.9f, 0.7f, 0.5f});
  CHECK(r.rois[8] == 5.0f);
  CHECK(r.rois[10] == 15.0f);
  // dw = ln 2, dh = ln 0.5 on the second ROI: twice as wide, half as high, same centre.
  p = row3();
  p.info = {100, 100};
  p.deltas[6] = std::log(2.0f);
  p.deltas[7] = std::log(0.5f);
  r = run_f32(p);
  REQUIRE(r.rois.size() == 12);
  CHECK(r.rois[0] == doctest::Approx(5.0f));
  CHECK(r.rois[1] == doctest::Approx(2.5f));
  CHECK(r.rois[2] == doctest::Approx(25.0f));
  CHECK(r.rois[3] == doctest::Approx(7.5f));
  // pre_nms keeps the best scores before anything else; post_nms the first kept after NMS.
  p = row3();
  p.pre_nms = 2;
  r = run_f32(p);
  CHECK(r.scores == std::vector<float>{0.9f, 0.7f});
  p.pre_nms = -1;
  p.post_nms = 1;
  r = run_f32(p);
  CHECK(r.scores == std::vector<float>{0.9f});
  p.post_nms = 0;  // as the reference: none kept
  r = run_f32(p);
  CHECK(r.scores.empty());
}

TEST_CASE("GENERATE_PROPOSALS: images one after another, each clipped to its own size") {
  Proposals p = row3();
  p.batches = 2;
  p.scores = {0.5f, 0.9f, 0.7f, 0.2f, 0.3f, 0.4f};
  p.deltas.assign(24, 0.0f);
  p.info = {100, 25, 5, 12};  // the second image is 5 high: every ROI is clipped to y2 = 5
  p.height = 1;
  const Result r = run_f32(p);
  CHECK(r.scores == std::vector<float>{0.9f, 0.7f, 0.5f, 0.3f, 0.2f});
  CHECK(r.batch == std::vector<std::int32_t>{0, 0, 0, 1, 1});
  CHECK(std::vector<float>(r.rois.begin() + 12, r.rois.end()) == std::vector<float>{10, 0, 12, 5, 0, 0, 10, 5});
}

namespace {

Proposals random_proposals(std::mt19937& rng) {
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  Proposals p;
  p.batches = 1 + static_cast<std::uint32_t>(rng() % 2);
  p.height = 1 + static_cast<std::uint32_t>(rng() % 4);
  p.width = 1 + static_cast<std::uint32_t>(rng() % 4);
  p.anchors = 1 + static_cast<std::uint32_t>(rng() % 3);
  const std::size_t cells = std::size_t{p.batches} * p.height * p.width * p.anchors;
  for (std::size_t i = 0; i < cells; ++i) p.scores.push_back(std::round(u(rng) * 200) / 200);
  for (std::size_t i = 0; i < cells * 4; ++i) p.deltas.push_back(std::round((u(rng) - 0.5f) * 20) / 20);
  for (std::size_t a = 0; a < p.anchors; ++a) {
    const float x1 = std::round(u(rng) * 40) / 8, y1 = std::round(u(rng) * 40) / 8;
    p.anchors_xyxy.insert(p.anchors_xyxy.end(), {x1, y1, x1 + 2 + std::round(u(rng) * 80) / 8, y1 + 2 + std::round(u(rng) * 80) / 8});
  }
  for (std::size_t b = 0; b < p.batches; ++b) p.info.insert(p.info.end(), {20 + std::round(u(rng) * 20), 20 + std::round(u(rng) * 20)});
  p.h_stride = 4;
  p.w_stride = 5;
  p.pre_nms = static_cast<std::int32_t>(rng() % 12) - 1;
  p.post_nms = static_cast<std::int32_t>(rng() % 8) - 1;
  p.iou = 0.3f + 0.1f * static_cast<float>(rng() % 5);
  p.min_size = static_cast<float>(rng() % 3);
  return p;
}

}  // namespace

TEST_CASE("GENERATE_PROPOSALS: NCHW gives what NHWC gives") {
  std::mt19937 rng(5);
  for (int iter = 0; iter < 30; ++iter) {
    Proposals p = random_proposals(rng);
    const Result nhwc = run_f32(p);
    p.nchw = true;
    const Result nchw = run_f32(p);
    CAPTURE(iter);
    CHECK(nchw.scores == nhwc.scores);
    CHECK(nchw.rois == nhwc.rois);
    CHECK(nchw.batch == nhwc.batch);
  }
}

TEST_CASE_TEMPLATE("GENERATE_PROPOSALS: float16 and 8-bit agree with float32 on the same values", TT,
                   std::integral_constant<OperandType, F16>, std::integral_constant<OperandType, QA8>,
                   std::integral_constant<OperandType, QAS8>) {
  constexpr OperandType T = TT::value;
  using E = element_t<T>;
  constexpr float sscale = 1.0f / 200, dscale = 1.0f / 20;
  constexpr std::int32_t szp = T == QA8 ? 0 : -128, dzp = T == QA8 ? 128 : 0;
  std::mt19937 rng(9);
  for (int iter = 0; iter < 30; ++iter) {
    Proposals p = random_proposals(rng);
    p.nchw = iter % 2 == 1;
    if constexpr (T == F16) {
      // Scalars rounded to half, as the float16 node reads them.
      p.iou = static_cast<float>(Half(p.iou));
    }
    KernelNode n = proposals_node<T>(p, sscale, szp, dscale, dzp);
    REQUIRE(n.run_planned(proposals_impl()));
    Proposals pf = p;
    pf.scores = real(store<E>(p.scores, sscale, szp), sscale, szp);
    pf.deltas = real(store<E>(p.deltas, dscale, dzp), dscale, dzp);
    const Result want = run_f32(pf);
    CAPTURE(iter);
    REQUIRE(n.out(0).dims == Dims{static_cast<std::uint32_t>(want.scores.size())});
    CHECK(n.values<I32>(2) == want.batch);
    std::vector<float> scores, rois;
    if constexpr (kQuant<T>) {
      scores = real(n.values<T>(0), sscale, szp);
      rois = real(n.values<Q16>(1), 0.125f, 0);
    } else {
      scores = real(n.values<T>(0));
      rois = real(n.values<T>(1));
    }
    for (std::size_t i = 0; i < scores.size(); ++i) CHECK(std::abs(scores[i] - want.scores[i]) <= 1e-3f);
    for (std::size_t i = 0; i < rois.size(); ++i)
      CHECK(std::abs(rois[i] - want.rois[i]) <= (kQuant<T> ? 0.0625f : std::abs(want.rois[i]) * 1e-3f) + 1e-4f);
  }
}

TEST_CASE("GENERATE_PROPOSALS: bad anchors, parameters and shapes are refused") {
  const auto& impl = proposals_impl();
  CHECK(status_of(proposals_node<F32>(row3()).run_planned(impl)) == ErrorStatus::NONE);
  Proposals p = row3();
  p.anchors_xyxy = {10, 0, 0, 10};
  CHECK(status_of(proposals_node<F32>(p).run_planned(impl)) == ErrorStatus::INVALID_ARGUMENT);
  p.anchors_xyxy = {0, kNaN, 10, 10};
  CHECK(status_of(proposals_node<F32>(p).run_planned(impl)) == ErrorStatus::INVALID_ARGUMENT);
  p = row3();
  p.w_stride = -1;
  CHECK(status_of(proposals_node<F32>(p).run_planned(impl)) == ErrorStatus::INVALID_ARGUMENT);
  p = row3();
  p.h_stride = kInf;
  CHECK(status_of(proposals_node<F32>(p).run_planned(impl)) == ErrorStatus::INVALID_ARGUMENT);
  p = row3();
  p.iou = kNaN;
  CHECK(status_of(proposals_node<F32>(p).run_planned(impl)) == ErrorStatus::INVALID_ARGUMENT);
  p = row3();
  p.min_size = kNaN;
  CHECK(status_of(proposals_node<F32>(p).run_planned(impl)) == ErrorStatus::INVALID_ARGUMENT);
  KernelNode n = proposals_node<F32>(row3());
  n.in(1).dims = Dims{1, 1, 3, 3};  // deltas not 4 per anchor
  CHECK(status_of(n.run_planned(impl)) == ErrorStatus::INVALID_ARGUMENT);
  n = proposals_node<F32>(row3());
  n.in(3).dims = Dims{2, 1};
  CHECK(status_of(n.run_planned(impl)) == ErrorStatus::INVALID_ARGUMENT);
  n = proposals_node<QA8>(row3());
  n.in(2).scale = 0.5f;
  CHECK(status_of(n.run_planned(impl)) == ErrorStatus::INVALID_ARGUMENT);
  // Without planned scratch a dynamic node fails instead of allocating.
  n = proposals_node<F32>(row3());
  CHECK(status_of(n.infer(impl)) == ErrorStatus::GENERAL_FAILURE);
}

// ---------------------------------------------------------------------------------------------
// DETECTION_POSTPROCESSING

namespace {

struct Ssd {
  std::uint32_t batches = 1, anchors = 3, classes = 3, box_length = 4;
  std::vector<float> scores, deltas, anchors_yxhw;
  float scale_y = 10, scale_x = 10, scale_h = 5, scale_w = 5;
  bool regular = true, background = false;
  std::int32_t max_det = 4, max_classes = 1, max_per_class = 5;
  float score_threshold = 0.25f, iou = 0.5f;
};

template <OperandType T>
KernelNode ssd_node(const Ssd& s) {
  using E = element_t<T>;
  constexpr OperandType S = T == F16 ? OperandType::FLOAT16 : OperandType::FLOAT32;
  auto f = [](float v) { return static_cast<element_t<S>>(v); };
  KernelNode n;
  n.tensor<T>(Dims{s.batches, s.anchors, s.classes}, store<E>(s.scores));
  n.tensor<T>(Dims{s.batches, s.anchors, s.box_length}, store<E>(s.deltas));
  n.tensor<T>(Dims{s.anchors, 4}, store<E>(s.anchors_yxhw));
  n.scalar<S>(f(s.scale_y));
  n.scalar<S>(f(s.scale_x));
  n.scalar<S>(f(s.scale_h));
  n.scalar<S>(f(s.scale_w));
  n.scalar<OperandType::BOOL>(s.regular ? 1 : 0);
  n.scalar<OperandType::INT32>(s.max_det);
  n.scalar<OperandType::INT32>(s.max_classes);
  n.scalar<OperandType::INT32>(s.max_per_class);
  n.scalar<S>(f(s.score_threshold));
  n.scalar<S>(f(s.iou));
  n.scalar<OperandType::BOOL>(s.background ? 1 : 0);
  n.output(T);
  n.output(T);
  n.output(I32);
  n.output(I32);
  return n;
}

const auto& ssd_impl() { return kernels_of<OperationType::DETECTION_POSTPROCESSING>(); }

/// Anchors (ctr_y, ctr_x, h, w): A0 and A1 overlap (IoU 81 / 119), A2 is apart. Zero deltas.
/// Scores [background, class 1, class 2] per anchor.
Ssd three_anchors() {
  Ssd s;
  s.anchors_yxhw = {5, 5, 10, 10, 6, 6, 10, 10, 50, 50, 10, 10};
  s.deltas.assign(12, 0.0f);
  s.scores = {0.1f, 0.9f, 0.2f, 0.1f, 0.8f, 0.7f, 0.1f, 0.3f, 0.6f};
  return s;
}

struct SsdResult {
  std::vector<float> scores, boxes;
  std::vector<std::int32_t> classes, count;
};

template <OperandType T = F32>
SsdResult run_ssd(const Ssd& s) {
  KernelNode n = ssd_node<T>(s);
  REQUIRE(n.run_planned(ssd_impl()));
  return {real(n.values<T>(0)), real(n.values<T>(1)), n.values<I32>(2), n.values<I32>(3)};
}

const std::vector<float> kBoxA0 = {0, 0, 10, 10}, kBoxA1 = {1, 1, 11, 11}, kBoxA2 = {45, 45, 55, 55};

std::vector<float> boxes_of(std::initializer_list<const std::vector<float>*> list, std::size_t pad_rows = 0) {
  std::vector<float> out;
  for (const auto* b : list) out.insert(out.end(), b->begin(), b->end());
  out.resize(out.size() + pad_rows * 4, 0.0f);
  return out;
}

}  // namespace

TEST_CASE("DETECTION_POSTPROCESSING: SSD decoding of an anchor") {
  Ssd s;
  s.anchors = 1;
  s.classes = 2;
  s.box_length = 6;  // deltas beyond the first four are ignored
  s.anchors_yxhw = {10, 20, 4, 8};
  s.deltas = {1, -1, 5 * std::log(2.0f), 0, 123, -456};
  s.scores = {0.0f, 0.9f};
  s.max_det = 1;
  const SsdResult r = run_ssd(s);
  // centre (10 + 4 * 1 / 10, 20 + 8 * -1 / 10), half height 4 * 2 / 2, half width 8 * 1 / 2.
  REQUIRE(r.boxes.size() == 4);
  CHECK(r.boxes[0] == doctest::Approx(6.4f));
  CHECK(r.boxes[1] == doctest::Approx(15.2f));
  CHECK(r.boxes[2] == doctest::Approx(14.4f));
  CHECK(r.boxes[3] == doctest::Approx(23.2f));
  CHECK(r.scores == std::vector<float>{0.9f});
  CHECK(r.count == std::vector<std::int32_t>{1});
}

TEST_CASE("DETECTION_POSTPROCESSING: regular NMS per class, sorted, cut, padded") {
  Ssd s = three_anchors();
  // Class 1: A0 0.9 kept, A1 0.8 suppressed by A0, A2 0.3 kept. Class 2: A1 0.7 and A2 0.6 kept
  // (A0's 0.2 is under the threshold). By score: A0/1, A1/2, A2/2, A2/1.
  SsdResult r = run_ssd(s);
  CHECK(r.scores == std::vector<float>{0.9f, 0.7f, 0.6f, 0.3f});
  CHECK(r.boxes == boxes_of({&kBoxA0, &kBoxA1, &kBoxA2, &kBoxA2}));
  CHECK(r.classes == std::vector<std::int32_t>{0, 1, 1, 0});  // class - 1 without the background
  CHECK(r.count == std::vector<std::int32_t>{4});
  s.background = true;
  r = run_ssd(s);
  CHECK(r.classes == std::vector<std::int32_t>{1, 2, 2, 1});
  s = three_anchors();
  s.max_det = 6;  // two rows of padding
  r = run_ssd(s);
  CHECK(r.scores == std::vector<float>{0.9f, 0.7f, 0.6f, 0.3f, 0, 0});
  CHECK(r.boxes == boxes_of({&kBoxA0, &kBoxA1, &kBoxA2, &kBoxA2}, 2));
  CHECK(r.classes == std::vector<std::int32_t>{0, 1, 1, 0, 0, 0});
  CHECK(r.count == std::vector<std::int32_t>{4});
  s.max_det = 2;
  r = run_ssd(s);
  CHECK(r.scores == std::vector<float>{0.9f, 0.7f});
  CHECK(r.count == std::vector<std::int32_t>{2});
  s = three_anchors();
  s.max_per_class = 1;  // class 1 keeps A0, class 2 keeps A1
  r = run_ssd(s);
  CHECK(r.scores == std::vector<float>{0.9f, 0.7f, 0, 0});
  CHECK(r.count == std::vector<std::int32_t>{2});
  s = three_anchors();
  s.iou = 0.7f;  // IoU 0.68 no longer suppresses A1 in class 1
  r = run_ssd(s);
  CHECK(r.scores == std::vector<float>{0.9f, 0.8f, 0.7f, 0.6f});
  CHECK(r.classes == std::vector<std::int32_t>{0, 0, 1, 1});
}

TEST_CASE("DETECTION_POSTPROCESSING: fast NMS per anchor with its best classes") {
  Ssd s = three_anchors();
  s.regular = false;
  s.max_det = 2;
  // Best scores: A0 0.9, A1 0.8, A2 0.6; A1 is suppressed by A0.
  SsdResult r = run_ssd(s);
  CHECK(r.scores == std::vector<float>{0.9f, 0.6f});
  CHECK(r.boxes == boxes_of({&kBoxA0, &kBoxA2}));
  CHECK(r.classes == std::vector<std::int32_t>{0, 1});
  CHECK(r.count == std::vector<std::int32_t>{2});
  s.max_classes = 2;  // rows = 2 * 2; each kept anchor gives its two classes by score
  r = run_ssd(s);
  CHECK(r.scores == std::vector<float>{0.9f, 0.2f, 0.6f, 0.3f});
  CHECK(r.classes == std::vector<std::int32_t>{0, 1, 1, 0});
  CHECK(r.boxes == boxes_of({&kBoxA0, &kBoxA0, &kBoxA2, &kBoxA2}));
  CHECK(r.count == std::vector<std::int32_t>{4});
  s.max_classes = 5;  // more than the foreground classes: 2 per anchor, rows 2 * 5
  r = run_ssd(s);
  CHECK(r.scores.size() == 10);
  CHECK(r.count == std::vector<std::int32_t>{4});
  s = three_anchors();
  s.regular = false;
  s.max_det = 3;
  s.score_threshold = 0.85f;  // only A0's best passes
  r = run_ssd(s);
  CHECK(r.scores == std::vector<float>{0.9f, 0, 0});
  CHECK(r.count == std::vector<std::int32_t>{1});
}

TEST_CASE("DETECTION_POSTPROCESSING: batches and float16") {
  Ssd s = three_anchors();
  s.batches = 2;
  s.scores.insert(s.scores.end(), {0.1f, 0.0f, 0.0f, 0.1f, 0.0f, 0.0f, 0.1f, 0.5f, 0.0f});
  s.deltas.assign(24, 0.0f);
  const SsdResult r = run_ssd(s);
  CHECK(r.count == std::vector<std::int32_t>{4, 1});
  CHECK(std::vector<float>(r.scores.begin() + 4, r.scores.end()) == std::vector<float>{0.5f, 0, 0, 0});
  CHECK(std::vector<float>(r.boxes.begin() + 16, r.boxes.begin() + 20) == kBoxA2);
  const SsdResult h = run_ssd<F16>(s);
  CHECK(h.count == r.count);
  CHECK(h.classes == r.classes);
  REQUIRE(h.scores.size() == r.scores.size());
  for (std::size_t i = 0; i < r.scores.size(); ++i) CHECK(h.scores[i] == doctest::Approx(r.scores[i]).epsilon(1e-3));
  CHECK(h.boxes == r.boxes);
}

TEST_CASE("DETECTION_POSTPROCESSING: bad parameters, shapes and anchors are refused") {
  const auto& impl = ssd_impl();
  auto status = [&](const Ssd& s) { return status_of(ssd_node<F32>(s).run_planned(impl)); };
  CHECK(status(three_anchors()) == ErrorStatus::NONE);
  Ssd s = three_anchors();
  s.scale_x = 0;
  CHECK(status(s) == ErrorStatus::INVALID_ARGUMENT);
  s = three_anchors();
  s.scale_h = kNaN;
  CHECK(status(s) == ErrorStatus::INVALID_ARGUMENT);
  s = three_anchors();
  s.score_threshold = -0.1f;
  CHECK(status(s) == ErrorStatus::INVALID_ARGUMENT);
  s = three_anchors();
  s.iou = kNaN;
  CHECK(status(s) == ErrorStatus::INVALID_ARGUMENT);
  s = three_anchors();
  s.max_det = 0;
  CHECK(status(s) == ErrorStatus::INVALID_ARGUMENT);
  s = three_anchors();
  s.max_per_class = 0;
  CHECK(status(s) == ErrorStatus::INVALID_ARGUMENT);
  s.regular = false;  // the per-class limit only matters for regular NMS
  CHECK(status(s) == ErrorStatus::NONE);
  s.max_classes = 0;
  CHECK(status(s) == ErrorStatus::INVALID_ARGUMENT);
  s = three_anchors();
  s.anchors_yxhw[5] = kInf;
  CHECK(status(s) == ErrorStatus::INVALID_ARGUMENT);
  s = three_anchors();
  s.anchors_yxhw[2] = -10;
  CHECK(status(s) == ErrorStatus::INVALID_ARGUMENT);
  s = three_anchors();
  s.classes = 1;
  s.scores = {0.1f, 0.2f, 0.3f};
  CHECK(status(s) == ErrorStatus::INVALID_ARGUMENT);
  s = three_anchors();
  s.box_length = 3;
  s.deltas.assign(9, 0.0f);
  CHECK(status(s) == ErrorStatus::INVALID_ARGUMENT);
  KernelNode n = ssd_node<F32>(three_anchors());
  n.in(2).dims = Dims{2, 4};
  CHECK(status_of(n.run_planned(impl)) == ErrorStatus::INVALID_ARGUMENT);
}
