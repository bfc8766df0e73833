// Kernels of ROI_ALIGN and ROI_POOLING (nnhal/kernels/roi_align.hpp, roi_pooling.hpp): every
// type (float32, float16, quant8 asymm, quant8 asymm signed with 16-bit boxes), both layouts,
// random boxes, ratios, sampling ratios (including the adaptive 0) and zero points, against a
// plain reference written here from the definition (the reference implementation's sampling
// and bin formulas, on an NHWC copy of the input); zero ROIs and the runtime errors.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "nnhal/kernels/common/quantization.hpp"
#include "nnhal/kernels/roi_align.hpp"
#include "nnhal/kernels/roi_pooling.hpp"
#include "ops/kernel_test_util.hpp"

using nnhal::Dims;
using nnhal::Half;
using nnhal::OperandType;
using nnhal::OperationType;
using nnhal::element_t;
using nnhal::test::KernelNode;
using nnhal::test::kernels_of;

namespace {

struct Case {
  std::uint32_t n = 1, h = 1, w = 1, c = 1;
  std::uint32_t rois = 1;
  std::int32_t out_h = 1, out_w = 1;
  float h_ratio = 1, w_ratio = 1;
  std::int32_t h_samples = 0, w_samples = 0;
  bool nchw = false;
  std::vector<float> boxes;  // real coordinates (multiples of 0.125)
  std::vector<std::int32_t> batch;
  float in_scale = 1, out_scale = 1;
  std::int32_t in_zp = 0, out_zp = 0;
};

template <OperandType T>
constexpr bool kQuant = T == OperandType::TENSOR_QUANT8_ASYMM || T == OperandType::TENSOR_QUANT8_ASYMM_SIGNED;

template <OperandType T>
constexpr OperandType kBox = kQuant<T> ? OperandType::TENSOR_QUANT16_ASYMM : T;

/// Element offset in an image of either layout (ops/kernel_test_util.hpp).
constexpr auto at = &nnhal::test::image_offset;

Case random_case(std::mt19937& rng) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Case k;
  k.n = static_cast<std::uint32_t>(pick(1, 3));
  k.h = static_cast<std::uint32_t>(pick(1, 7));
  k.w = static_cast<std::uint32_t>(pick(1, 7));
  // Mostly a few channels; sometimes more than one block of 64 (the kernel's channel blocks).
  k.c = static_cast<std::uint32_t>(pick(0, 9) == 0 ? pick(60, 140) : pick(1, 4));
  k.rois = static_cast<std::uint32_t>(pick(1, 5));
  k.out_h = pick(1, 4);
  k.out_w = pick(1, 4);
  const float ratios[] = {0.5f, 1.0f, 2.0f, 4.0f, 0.25f};
  k.h_ratio = ratios[pick(0, 4)];
  k.w_ratio = ratios[pick(0, 4)];
  k.h_samples = pick(0, 3);
  k.w_samples = pick(0, 3);
  k.nchw = pick(0, 1) == 1;
  for (std::uint32_t r = 0; r < k.rois; ++r) {
    // Coordinates in eighths, within the (ratio-scaled) image.
    const int wmax = static_cast<int>(std::floor(static_cast<float>(k.w) * k.w_ratio * 8));
    const int hmax = static_cast<int>(std::floor(static_cast<float>(k.h) * k.h_ratio * 8));
    int x1 = pick(0, wmax), x2 = pick(0, wmax), y1 = pick(0, hmax), y2 = pick(0, hmax);
    if (x1 > x2) std::swap(x1, x2);
    if (y1 > y2) std::swap(y1, y2);
    k.boxes.insert(k.boxes.end(), {x1 / 8.0f, y1 / 8.0f, x2 / 8.0f, y2 / 8.0f});
    k.batch.push_back(pick(0, static_cast<int>(k.n) - 1));
  }
  k.in_scale = std::uniform_real_distribution<float>(0.01f, 0.5f)(rng);
  k.out_scale = std::uniform_real_distribution<float>(0.01f, 0.5f)(rng);
  k.in_zp = pick(-20, 20);
  k.out_zp = pick(-20, 20);
  return k;
}

/// Plain ROI_ALIGN on float values (in: the case's layout), the reference's formulas.
std::vector<float> align_float(const Case& k, const std::vector<float>& in) {
  std::vector<float> out(std::size_t{k.rois} * k.out_h * k.out_w * k.c);
  for (std::size_t r = 0; r < k.rois; ++r) {
    const float* b = &k.boxes[r * 4];
    const float x0 = b[0] * (1.0f / k.w_ratio), y0 = b[1] * (1.0f / k.h_ratio);
    const float x1 = b[2] * (1.0f / k.w_ratio), y1 = b[3] * (1.0f / k.h_ratio);
    const float bw = std::max(x1 - x0, 1.0f) / static_cast<float>(k.out_w);
    const float bh = std::max(y1 - y0, 1.0f) / static_cast<float>(k.out_h);
    const int sw = k.w_samples > 0 ? k.w_samples : static_cast<int>(std::ceil(bw));
    const int sh = k.h_samples > 0 ? k.h_samples : static_cast<int>(std::ceil(bh));
    for (int i = 0; i < k.out_h; ++i)
      for (int j = 0; j < k.out_w; ++j)
        for (std::size_t ch = 0; ch < k.c; ++ch) {
          float sum = 0;
          for (int yi = 0; yi < sh; ++yi)
            for (int xi = 0; xi < sw; ++xi) {
              const float y = bh * static_cast<float>(i) + y0 + bh / static_cast<float>(sh) / 2 +
                              bh / static_cast<float>(sh) * static_cast<float>(yi);
              const float x = bw * static_cast<float>(j) + x0 + bw / static_cast<float>(sw) / 2 +
                              bw / static_cast<float>(sw) * static_cast<float>(xi);
              std::size_t xa = static_cast<std::size_t>(std::floor(x)), ya = static_cast<std::size_t>(std::floor(y));
              std::size_t xb = xa + 1, yb = ya + 1;
              float fx = x - static_cast<float>(xa), fy = y - static_cast<float>(ya);
              if (xa >= k.w - 1) xa = xb = k.w - 1, fx = 0;
              if (ya >= k.h - 1) ya = yb = k.h - 1, fy = 0;
              auto v = [&](std::size_t yy, std::size_t xx) {
                return in[at(k.nchw, k.h, k.w, k.c, static_cast<std::size_t>(k.batch[r]), yy, xx, ch)];
              };
              sum += (1 - fx) * (1 - fy) * v(ya, xa) + fx * (1 - fy) * v(ya, xb) + (1 - fx) * fy * v(yb, xa) +
                     fx * fy * v(yb, xb);
            }
          out[at(k.nchw, static_cast<std::size_t>(k.out_h), static_cast<std::size_t>(k.out_w), k.c, r,
                 static_cast<std::size_t>(i), static_cast<std::size_t>(j), ch)] = sum / static_cast<float>(sh * sw);
        }
  }
  return out;
}

/// Plain quantized ROI_ALIGN: weights in 1/255 units, an integer sum, then the multiplier.
template <class E>
std::vector<E> align_quant(const Case& k, const std::vector<E>& in) {
  std::vector<E> out(std::size_t{k.rois} * k.out_h * k.out_w * k.c);
  for (std::size_t r = 0; r < k.rois; ++r) {
    const float* b = &k.boxes[r * 4];
    // 16-bit boxes: q * (1 / ratio) * 0.125.
    const float x0 = b[0] * 8 * (1.0f / k.w_ratio) * 0.125f, y0 = b[1] * 8 * (1.0f / k.h_ratio) * 0.125f;
    const float x1 = b[2] * 8 * (1.0f / k.w_ratio) * 0.125f, y1 = b[3] * 8 * (1.0f / k.h_ratio) * 0.125f;
    const float bw = std::max(x1 - x0, 1.0f) / static_cast<float>(k.out_w);
    const float bh = std::max(y1 - y0, 1.0f) / static_cast<float>(k.out_h);
    const int sw = k.w_samples > 0 ? k.w_samples : static_cast<int>(std::ceil(bw));
    const int sh = k.h_samples > 0 ? k.h_samples : static_cast<int>(std::ceil(bh));
    const float real = k.in_scale * (1.0f / 255.0f) / k.out_scale / static_cast<float>(sh * sw);
    const auto m = nnhal::quant::quantize_multiplier(real);
    for (int i = 0; i < k.out_h; ++i)
      for (int j = 0; j < k.out_w; ++j)
        for (std::size_t ch = 0; ch < k.c; ++ch) {
          std::int32_t sum = 0;
          for (int yi = 0; yi < sh; ++yi)
            for (int xi = 0; xi < sw; ++xi) {
              const float y = bh * static_cast<float>(i) + y0 + bh / static_cast<float>(sh) / 2 +
                              bh / static_cast<float>(sh) * static_cast<float>(yi);
              const float x = bw * static_cast<float>(j) + x0 + bw / static_cast<float>(sw) / 2 +
                              bw / static_cast<float>(sw) * static_cast<float>(xi);
              std::size_t xa = static_cast<std::size_t>(std::floor(x)), ya = static_cast<std::size_t>(std::floor(y));
              std::size_t xb = xa + 1, yb = ya + 1;
              float fx = x - static_cast<float>(xa), fy = y - static_cast<float>(ya);
              if (xa >= k.w - 1) xa = xb = k.w - 1, fx = 0;
              if (ya >= k.h - 1) ya = yb = k.h - 1, fy = 0;
              auto v = [&](std::size_t yy, std::size_t xx) {
                return static_cast<std::int32_t>(
                           in[at(k.nchw, k.h, k.w, k.c, static_cast<std::size_t>(k.batch[r]), yy, xx, ch)]) -
                       k.in_zp;
              };
              auto q = [](float wgt) { return static_cast<std::int32_t>(std::round(wgt / (1.0f / 255.0f))); };
              sum += q((1 - fx) * (1 - fy)) * v(ya, xa) + q(fx * (1 - fy)) * v(ya, xb) + q((1 - fx) * fy) * v(yb, xa) +
                     q(fx * fy) * v(yb, xb);
            }
          std::int32_t o = nnhal::quant::multiply_by_quantized_multiplier(sum, m.value, m.shift) + k.out_zp;
          o = std::clamp<std::int32_t>(o, std::numeric_limits<E>::lowest(), std::numeric_limits<E>::max());
          out[at(k.nchw, static_cast<std::size_t>(k.out_h), static_cast<std::size_t>(k.out_w), k.c, r,
                 static_cast<std::size_t>(i), static_cast<std::size_t>(j), ch)] = static_cast<E>(o);
        }
  }
  return out;
}

/// Plain ROI_POOLING on values of type E (bins from rounded, scaled corners; max per bin).
template <class E>
std::vector<E> pool_ref(const Case& k, const std::vector<E>& in, E empty) {
  std::vector<E> out(std::size_t{k.rois} * k.out_h * k.out_w * k.c);
  for (std::size_t r = 0; r < k.rois; ++r) {
    const float* b = &k.boxes[r * 4];
    const int x0 = static_cast<int>(std::round(b[0] * (1.0f / k.w_ratio)));
    const int y0 = static_cast<int>(std::round(b[1] * (1.0f / k.h_ratio)));
    const int x1 = static_cast<int>(std::round(b[2] * (1.0f / k.w_ratio)));
    const int y1 = static_cast<int>(std::round(b[3] * (1.0f / k.h_ratio)));
    const float bw = static_cast<float>(std::max(x1 - x0 + 1, 1)) / static_cast<float>(k.out_w);
    const float bh = static_cast<float>(std::max(y1 - y0 + 1, 1)) / static_cast<float>(k.out_h);
    for (int i = 0; i < k.out_h; ++i)
      for (int j = 0; j < k.out_w; ++j)
        for (std::size_t ch = 0; ch < k.c; ++ch) {
          const int ys = std::min<int>(static_cast<int>(std::floor(bh * static_cast<float>(i) + static_cast<float>(y0))), static_cast<int>(k.h));
          const int ye = std::min<int>(static_cast<int>(std::ceil(bh * static_cast<float>(i + 1) + static_cast<float>(y0))), static_cast<int>(k.h));
          const int xs = std::min<int>(static_cast<int>(std::floor(bw * static_cast<float>(j) + static_cast<float>(x0))), static_cast<int>(k.w));
          const int xe = std::min<int>(static_cast<int>(std::ceil(bw * static_cast<float>(j + 1) + static_cast<float>(x0))), static_cast<int>(k.w));
          E best = empty;
          bool any = false;
          for (int y = ys; y < ye; ++y)
            for (int x = xs; x < xe; ++x) {
              const E v = in[at(k.nchw, k.h, k.w, k.c, static_cast<std::size_t>(k.batch[r]), static_cast<std::size_t>(y),
                                static_cast<std::size_t>(x), ch)];
              if (!any || static_cast<float>(v) > static_cast<float>(best)) best = v, any = true;
            }
          out[at(k.nchw, static_cast<std::size_t>(k.out_h), static_cast<std::size_t>(k.out_w), k.c, r,
                 static_cast<std::size_t>(i), static_cast<std::size_t>(j), ch)] = best;
        }
  }
  return out;
}

template <OperandType T>
void add_inputs(KernelNode& node, const Case& k, const std::vector<element_t<T>>& in, bool pooling) {
  using E = element_t<T>;
  const Dims dims = k.nchw ? Dims{k.n, k.c, k.h, k.w} : Dims{k.n, k.h, k.w, k.c};
  node.tensor<T>(dims, in, kQuant<T> ? k.in_scale : 0.0f, kQuant<T> ? k.in_zp : 0);
  constexpr OperandType B = kBox<T>;
  std::vector<element_t<B>> boxes;
  for (float v : k.boxes) {
    if constexpr (kQuant<T>)
      boxes.push_back(static_cast<std::uint16_t>(v * 8));
    else
      boxes.push_back(element_t<B>(v));
  }
  node.tensor<B>(Dims{k.rois, 4}, boxes, kQuant<T> ? 0.125f : 0.0f, 0);
  node.tensor<OperandType::TENSOR_INT32>(Dims{k.rois}, k.batch);
  node.scalar<OperandType::INT32>(k.out_h);
  node.scalar<OperandType::INT32>(k.out_w);
  if constexpr (T == OperandType::TENSOR_FLOAT16) {
    node.scalar<OperandType::FLOAT16>(Half(k.h_ratio));
    node.scalar<OperandType::FLOAT16>(Half(k.w_ratio));
  } else {
    node.scalar<OperandType::FLOAT32>(k.h_ratio);
    node.scalar<OperandType::FLOAT32>(k.w_ratio);
  }
  if (!pooling) {
    node.scalar<OperandType::INT32>(k.h_samples);
    node.scalar<OperandType::INT32>(k.w_samples);
  }
  node.scalar<OperandType::BOOL>(k.nchw ? 1 : 0);
  node.output(T, kQuant<T> ? (pooling ? k.in_scale : k.out_scale) : 0.0f,
              kQuant<T> ? (pooling ? k.in_zp : k.out_zp) : 0);
  (void)sizeof(E);
}

template <OperandType T>
std::vector<element_t<T>> random_input(const Case& k, std::mt19937& rng) {
  using E = element_t<T>;
  std::vector<E> in(std::size_t{k.n} * k.h * k.w * k.c);
  for (E& v : in) {
    if constexpr (kQuant<T>)
      v = static_cast<E>(std::uniform_int_distribution<int>(std::numeric_limits<E>::lowest(), std::numeric_limits<E>::max())(rng));
    else
      v = E(std::uniform_real_distribution<float>(-4.0f, 4.0f)(rng));
  }
  return in;
}

template <OperandType T>
void check_align(std::uint32_t seed) {
  using E = element_t<T>;
  std::mt19937 rng(seed);
  for (int iter = 0; iter < 150; ++iter) {
    const Case k = random_case(rng);
    CAPTURE(iter);
    const std::vector<E> in = random_input<T>(k, rng);
    KernelNode node;
    add_inputs<T>(node, k, in, false);
    REQUIRE(node.run(kernels_of<OperationType::ROI_ALIGN>()));
    const Dims want = k.nchw ? Dims{k.rois, k.c, static_cast<std::uint32_t>(k.out_h), static_cast<std::uint32_t>(k.out_w)}
                             : Dims{k.rois, static_cast<std::uint32_t>(k.out_h), static_cast<std::uint32_t>(k.out_w), k.c};
    REQUIRE(node.out(0).dims == want);
    const std::vector<E> got = node.values<T>(0);
    if constexpr (kQuant<T>) {
      const std::vector<E> ref = align_quant<E>(k, in);
      for (std::size_t i = 0; i < ref.size(); ++i) REQUIRE(static_cast<int>(got[i]) == static_cast<int>(ref[i]));
    } else {
      std::vector<float> fin(in.size());
      for (std::size_t i = 0; i < in.size(); ++i) fin[i] = static_cast<float>(in[i]);
      const std::vector<float> ref = align_float(k, fin);
      for (std::size_t i = 0; i < ref.size(); ++i) {
        if constexpr (std::is_same_v<E, Half>) {
          // The kernel computes in float and rounds to half once. Its float result may differ
          // from the reference's by the rounding of a contracted multiply-add (the float32 check
          // below allows 1e-6 relative); where that difference straddles a half rounding
          // boundary the half results differ by one half ulp, so the half result must be the
          // rounding of a float within that same 1e-6 of the reference.
          const float g = static_cast<float>(got[i]), r = ref[i], slack = std::abs(r) * 1e-6f;
          const bool ok = g == static_cast<float>(Half(r)) || g == static_cast<float>(Half(r - slack)) ||
                          g == static_cast<float>(Half(r + slack));
          CAPTURE(r);
          CAPTURE(g);
          REQUIRE(ok);
        } else
          REQUIRE(got[i] == doctest::Approx(ref[i]).epsilon(1e-6));
      }
    }
  }
}

template <OperandType T>
void check_pool(std::uint32_t seed) {
  using E = element_t<T>;
  std::mt19937 rng(seed);
  for (int iter = 0; iter < 150; ++iter) {
    const Case k = random_case(rng);
    CAPTURE(iter);
    const std::vector<E> in = random_input<T>(k, rng);
    KernelNode node;
    add_inputs<T>(node, k, in, true);
    REQUIRE(node.run(kernels_of<OperationType::ROI_POOLING>()));
    const std::vector<E> got = node.values<T>(0);
    E empty{};
    if constexpr (kQuant<T>) empty = static_cast<E>(k.in_zp);
    const std::vector<E> ref = pool_ref<E>(k, in, empty);
    REQUIRE(got.size() == ref.size());
    for (std::size_t i = 0; i < ref.size(); ++i) REQUIRE(static_cast<float>(got[i]) == static_cast<float>(ref[i]));
  }
}

}  // namespace

TEST_CASE("ROI_ALIGN: random boxes, ratios, samples and layouts against a plain reference") {
  check_align<OperandType::TENSOR_FLOAT32>(1);
  check_align<OperandType::TENSOR_FLOAT16>(2);
  check_align<OperandType::TENSOR_QUANT8_ASYMM>(3);
  check_align<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>(4);
}

TEST_CASE("ROI_POOLING: random boxes, ratios and layouts against a plain reference") {
  check_pool<OperandType::TENSOR_FLOAT32>(5);
  check_pool<OperandType::TENSOR_FLOAT16>(6);
  check_pool<OperandType::TENSOR_QUANT8_ASYMM>(7);
  check_pool<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>(8);
}

TEST_CASE("ROI_ALIGN: a box covering a 2x2 image averages it; one sample at the centre") {
  // 2x2 image [1 2; 3 4], box (0,0)-(2,2), 1x1 output, one sample at (1, 1): clamped to the
  // last row and column -> 4. With 2x2 samples at 0.5 and 1.5: (1+2+3+4)/4 at (0.5,0.5) = 2.5,
  // (0.5,1.5) -> row 0 col 1 clamped = 2 + 0.5*(4-2) = 3, (1.5,0.5) -> 3.5, (1.5,1.5) -> 4;
  // mean 3.25.
  for (int samples : {1, 2}) {
    KernelNode node;
    node.tensor<OperandType::TENSOR_FLOAT32>(Dims{1, 2, 2, 1}, {1, 2, 3, 4});
    node.tensor<OperandType::TENSOR_FLOAT32>(Dims{1, 4}, {0, 0, 2, 2});
    node.tensor<OperandType::TENSOR_INT32>(Dims{1}, {0});
    node.scalar<OperandType::INT32>(1);
    node.scalar<OperandType::INT32>(1);
    node.scalar<OperandType::FLOAT32>(1.0f);
    node.scalar<OperandType::FLOAT32>(1.0f);
    node.scalar<OperandType::INT32>(samples);
    node.scalar<OperandType::INT32>(samples);
    node.scalar<OperandType::BOOL>(0);
    node.output(OperandType::TENSOR_FLOAT32);
    REQUIRE(node.run(kernels_of<OperationType::ROI_ALIGN>()));
    CHECK(node.values<OperandType::TENSOR_FLOAT32>(0)[0] == doctest::Approx(samples == 1 ? 4.0f : 3.25f));
  }
}

TEST_CASE("ROI_ALIGN / ROI_POOLING: zero ROIs and malformed boxes") {
  auto build = [](KernelNode& node, std::vector<float> box, std::int32_t batch, bool pooling) {
    node.tensor<OperandType::TENSOR_FLOAT32>(Dims{1, 2, 2, 1}, {1, 2, 3, 4});
    const auto n = static_cast<std::uint32_t>(box.size() / 4);
    node.tensor<OperandType::TENSOR_FLOAT32>(Dims{n, 4}, box);
    node.tensor<OperandType::TENSOR_INT32>(Dims{n}, std::vector<std::int32_t>(n, batch));
    node.scalar<OperandType::INT32>(2);
    node.scalar<OperandType::INT32>(2);
    node.scalar<OperandType::FLOAT32>(1.0f);
    node.scalar<OperandType::FLOAT32>(1.0f);
    if (!pooling) {
      node.scalar<OperandType::INT32>(0);
      node.scalar<OperandType::INT32>(0);
    }
    node.scalar<OperandType::BOOL>(0);
    node.output(OperandType::TENSOR_FLOAT32);
  };
  for (bool pooling : {false, true}) {
    const auto& impl = pooling ? kernels_of<OperationType::ROI_POOLING>() : kernels_of<OperationType::ROI_ALIGN>();
    {
      KernelNode node;
      build(node, {}, 0, pooling);
      REQUIRE(node.run(impl));
      CHECK(node.out(0).dims == Dims{0, 2, 2, 1});
    }
    const std::vector<std::vector<float>> bad = {
        {1, 0, 0, 1},                                    // inverted x
        {0, 1, 1, 0},                                    // inverted y
        {-1, 0, 1, 1},                                   // negative
        {0, 0, 3, 1},                                    // beyond the width
        {0, 0, 1, std::numeric_limits<float>::quiet_NaN()},  // NaN
        {0, 0, std::numeric_limits<float>::infinity(), 1},
    };
    for (const auto& b : bad) {
      KernelNode node;
      build(node, b, 0, pooling);
      CHECK_FALSE(node.run(impl));
    }
    for (std::int32_t batch : {-1, 1}) {
      KernelNode node;
      build(node, {0, 0, 1, 1}, batch, pooling);
      CHECK_FALSE(node.run(impl));
    }
  }
}
