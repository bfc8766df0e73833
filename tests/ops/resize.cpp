// Kernels of RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR (nnhal/kernels/common/resize.hpp):
// every type (float32, float16, quant8 asymm, quant8 asymm signed), the size form and the
// scale form (FLOAT32 scales, FLOAT16 scales for float16), align_corners and
// half_pixel_centers, up- and down-scaling, both layouts and every optional-input count,
// against a plain per-element reference written here from the reference's formulas
// (TFLite reference_ops::ResizeBilinear, NNAPI's nearest-neighbour loop); zero-sized batches
// and the runtime errors.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "nnhal/kernels/resize_bilinear.hpp"
#include "nnhal/kernels/resize_nearest_neighbor.hpp"
#include "ops/kernel_test_util.hpp"

using nnhal::Dims;
using nnhal::Half;
using nnhal::OperandType;
using nnhal::OperationType;
using nnhal::test::KernelNode;
using nnhal::test::kernels_of;

namespace {

enum class Form { Size, Scale };

struct Spec {
  bool bilinear = true;
  std::uint32_t n = 1, h = 1, w = 1, c = 1;
  Form form = Form::Size;
  std::int32_t out_h = 1, out_w = 1;     // size form
  float scale_h = 1.0f, scale_w = 1.0f;  // scale form
  bool nchw = false, align = false, half = false;
  int flags = 1;  // optional BOOL inputs given: 0 (bilinear only), 1 layout, 2 + align, 3 + half
};

/// The output size the spec asks for (scale form: floor(in * scale) in float).
template <class E>
std::int64_t extent(const Spec& s, bool height) {
  if (s.form == Form::Size) return height ? s.out_h : s.out_w;
  float scale = height ? s.scale_h : s.scale_w;
  if constexpr (std::is_same_v<E, Half>) scale = static_cast<float>(Half(scale));
  return static_cast<std::int64_t>(std::floor(static_cast<float>(height ? s.h : s.w) * scale));
}

template <class E>
std::vector<E> reference(const Spec& s, const std::vector<E>& in) {
  constexpr bool kFloat = std::is_same_v<E, float> || std::is_same_v<E, Half>;
  const auto oh = static_cast<std::size_t>(extent<E>(s, true)), ow = static_cast<std::size_t>(extent<E>(s, false));
  const auto H = static_cast<std::int64_t>(s.h), W = static_cast<std::int64_t>(s.w);
  auto at = [&](std::size_t H_, std::size_t W_, std::size_t b, std::size_t y, std::size_t x, std::size_t c) {
    return s.nchw ? ((b * s.c + c) * H_ + y) * W_ + x : ((b * H_ + y) * W_ + x) * s.c + c;
  };
  auto scale_of = [&](std::int64_t in, std::size_t out) {
    return s.align && out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1)
                              : static_cast<float>(in) / static_cast<float>(out);
  };
  const float sy = scale_of(H, oh), sx = scale_of(W, ow);
  std::vector<E> out(std::size_t{s.n} * oh * ow * s.c);
  for (std::size_t b = 0; b < s.n; ++b)
    for (std::size_t y = 0; y < oh; ++y)
      for (std::size_t x = 0; x < ow; ++x)
        for (std::size_t c = 0; c < s.c; ++c) {
          E& dst = out[at(oh, ow, b, y, x, c)];
          if (!s.bilinear) {
            auto src = [&](std::size_t o, float scale, std::int64_t size) {
              const float v = s.half ? (static_cast<float>(o) + 0.5f) * scale : static_cast<float>(o) * scale;
              std::int64_t i = s.align ? static_cast<std::int64_t>(std::round(v)) : static_cast<std::int64_t>(std::floor(v));
              i = std::min(i, size - 1);
              if (s.half) i = std::max<std::int64_t>(i, 0);
              return static_cast<std::size_t>(i);
            };
            dst = in[at(s.h, s.w, b, src(y, sy, H), src(x, sx, W), c)];
            continue;
          }
          auto coord = [&](std::size_t o, float scale, std::int64_t size, float& v, std::int64_t& lo, std::int64_t& hi) {
            v = s.half ? (static_cast<float>(o) + 0.5f) * scale - 0.5f : static_cast<float>(o) * scale;
            lo = std::max<std::int64_t>(static_cast<std::int64_t>(std::floor(v)), 0);
            hi = std::min<std::int64_t>(static_cast<std::int64_t>(std::ceil(v)), size - 1);
          };
          float vy, vx;
          std::int64_t y0, y1, x0, x1;
          coord(y, sy, H, vy, y0, y1);
          coord(x, sx, W, vx, x0, x1);
          auto px = [&](std::int64_t yy, std::int64_t xx) {
            return static_cast<float>(in[at(s.h, s.w, b, static_cast<std::size_t>(yy), static_cast<std::size_t>(xx), c)]);
          };
          const float dy = vy - static_cast<float>(y0), dx = vx - static_cast<float>(x0);
          const float v = px(y0, x0) * (1 - dy) * (1 - dx) + px(y1, x0) * dy * (1 - dx) + px(y0, x1) * (1 - dy) * dx +
                          px(y1, x1) * dy * dx;
          if constexpr (kFloat) {
            dst = E(v);
          } else {
            // The reference's static_cast of v + 0.5: truncation toward zero.
            const float t = std::trunc(v + 0.5f);
            dst = static_cast<E>(std::min<float>(std::max<float>(t, std::numeric_limits<E>::lowest()),
                                                 std::numeric_limits<E>::max()));
          }
        }
  return out;
}

template <OperandType T>
nnhal::Status run_resize(KernelNode& node, const Spec& s, const std::vector<nnhal::element_t<T>>& in) {
  const Dims dims = s.nchw ? Dims{s.n, s.c, s.h, s.w} : Dims{s.n, s.h, s.w, s.c};
  node.tensor<T>(dims, in, 0.25f, std::is_same_v<nnhal::element_t<T>, std::uint8_t> ? 100 : 0);
  using enum OperandType;
  if (s.form == Form::Size) {
    node.scalar<INT32>(s.out_w), node.scalar<INT32>(s.out_h);
  } else if constexpr (T == TENSOR_FLOAT16) {
    node.scalar<FLOAT16>(Half(s.scale_w)), node.scalar<FLOAT16>(Half(s.scale_h));
  } else {
    node.scalar<FLOAT32>(s.scale_w), node.scalar<FLOAT32>(s.scale_h);
  }
  if (s.flags >= 1) node.scalar<BOOL>(s.nchw ? 1 : 0);
  if (s.flags >= 2) node.scalar<BOOL>(s.align ? 1 : 0);
  if (s.flags >= 3) node.scalar<BOOL>(s.half ? 1 : 0);
  node.output(T, 0.25f, std::is_same_v<nnhal::element_t<T>, std::uint8_t> ? 100 : 0);
  return node.run(s.bilinear ? kernels_of<OperationType::RESIZE_BILINEAR>()
                             : kernels_of<OperationType::RESIZE_NEAREST_NEIGHBOR>());
}

template <class E>
std::vector<E> random_values(std::mt19937& gen, std::size_t n) {
  std::vector<E> v(n);
  if constexpr (std::is_same_v<E, float> || std::is_same_v<E, Half>) {
    std::uniform_real_distribution<float> d(-8.0f, 8.0f);
    for (E& x : v) x = E(d(gen));
  } else {
    std::uniform_int_distribution<int> d(std::numeric_limits<E>::lowest(), std::numeric_limits<E>::max());
    for (E& x : v) x = static_cast<E>(d(gen));
  }
  return v;
}

template <class E>
bool same_value(E a, E b) {
  if constexpr (std::is_same_v<E, float>) {
    return std::fabs(a - b) <= 1e-6f * std::max(1.0f, std::fabs(b));
  } else if constexpr (std::is_same_v<E, Half>) {
    return a.bits == b.bits ||
           std::fabs(static_cast<float>(a) - static_cast<float>(b)) <= 1e-3f * std::max(1.0f, std::fabs(static_cast<float>(b)));
  } else {
    return a == b;
  }
}

template <OperandType T>
void random_cases(bool bilinear, int count) {
  using E = nnhal::element_t<T>;
  std::mt19937 gen(static_cast<unsigned>(static_cast<int>(T) * 7 + (bilinear ? 1 : 0)));
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen); };
  for (int i = 0; i < count; ++i) {
    Spec s;
    s.bilinear = bilinear;
    s.n = static_cast<std::uint32_t>(pick(0, 5) == 0 ? 0 : pick(1, 2));
    s.h = static_cast<std::uint32_t>(pick(1, 7)), s.w = static_cast<std::uint32_t>(pick(1, 7));
    s.c = static_cast<std::uint32_t>(pick(1, 5));
    s.flags = pick(bilinear ? 0 : 1, 3);
    s.nchw = s.flags >= 1 && pick(0, 1) == 1;
    s.align = s.flags >= 2 && pick(0, 1) == 1;
    s.half = s.flags >= 3 && !s.align && pick(0, 1) == 1;
    s.form = pick(0, 1) == 0 ? Form::Size : Form::Scale;
    s.out_h = pick(1, 13), s.out_w = pick(1, 13);
    const float scales[] = {0.5f, 0.75f, 1.0f, 1.5f, 2.0f, 2.6f, 3.0f};
    s.scale_h = scales[pick(0, 6)], s.scale_w = scales[pick(0, 6)];
    if (s.form == Form::Scale && (extent<E>(s, true) <= 0 || extent<E>(s, false) <= 0)) s.scale_h = s.scale_w = 2.0f;
    const auto in = random_values<E>(gen, std::size_t{s.n} * s.h * s.w * s.c);
    INFO("n ", s.n, " h ", s.h, " w ", s.w, " c ", s.c, " form ", s.form == Form::Size ? "size" : "scale", " out ",
         s.out_h, "x", s.out_w, " scales ", s.scale_h, "x", s.scale_w, " flags ", s.flags, " nchw ", s.nchw, " align ",
         s.align, " half ", s.half);
    KernelNode node;
    const auto status = run_resize<T>(node, s, in);
    REQUIRE(status.has_value());
    const auto got = node.values<T>(0);
    const auto want = reference(s, in);
    REQUIRE(got.size() == want.size());
    std::size_t bad = 0;
    for (std::size_t k = 0; k < got.size(); ++k) bad += same_value(got[k], want[k]) ? 0 : 1;
    CHECK(bad == 0);
  }
}

}  // namespace

TEST_CASE("RESIZE_BILINEAR: every type, both forms, flags and layouts against the reference") {
  random_cases<OperandType::TENSOR_FLOAT32>(true, 200);
  random_cases<OperandType::TENSOR_FLOAT16>(true, 100);
  random_cases<OperandType::TENSOR_QUANT8_ASYMM>(true, 200);
  random_cases<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>(true, 200);
}

TEST_CASE("RESIZE_NEAREST_NEIGHBOR: every type, both forms, flags and layouts against the reference") {
  random_cases<OperandType::TENSOR_FLOAT32>(false, 200);
  random_cases<OperandType::TENSOR_FLOAT16>(false, 100);
  random_cases<OperandType::TENSOR_QUANT8_ASYMM>(false, 200);
  random_cases<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>(false, 200);
}

TEST_CASE("quantized RESIZE_BILINEAR: + 0.5 then truncation toward zero, as the reference") {
  // 1x1x2 -> 1x1x4 (x scale 0.5): the odd outputs are the mean of two neighbours.
  Spec s;
  s.h = 1, s.w = 2, s.c = 1, s.out_h = 1, s.out_w = 4, s.flags = 0;
  KernelNode node;
  REQUIRE(run_resize<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>(node, s, {-128, -127}).has_value());
  // -128 + 0.5 truncates to -127; -127.5 + 0.5 = -127; the last two read the right edge.
  CHECK(node.values<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>(0) == std::vector<std::int8_t>{-127, -127, -126, -126});
  KernelNode u;
  REQUIRE(run_resize<OperandType::TENSOR_QUANT8_ASYMM>(u, s, {10, 13}).has_value());
  CHECK(u.values<OperandType::TENSOR_QUANT8_ASYMM>(0) == std::vector<std::uint8_t>{10, 12, 13, 13});
}

TEST_CASE("resize: zero-sized batch gives an empty output") {
  Spec s;
  s.n = 0, s.h = 3, s.w = 3, s.c = 2, s.out_h = 5, s.out_w = 4;
  for (bool bilinear : {true, false}) {
    s.bilinear = bilinear;
    KernelNode node;
    REQUIRE(run_resize<OperandType::TENSOR_FLOAT32>(node, s, {}).has_value());
    CHECK(node.out(0).dims == Dims{0, 5, 4, 2});
  }
}

TEST_CASE("resize: runtime errors") {
  for (bool bilinear : {true, false}) {
    const auto fails = [&](Spec s) {
      s.bilinear = bilinear;
      KernelNode node;
      const std::vector<float> in(std::size_t{s.n} * s.h * s.w * s.c, 1.0f);
      return !run_resize<OperandType::TENSOR_FLOAT32>(node, s, in).has_value();
    };
    Spec ok;
    ok.h = 2, ok.w = 3, ok.c = 2, ok.out_h = 4, ok.out_w = 6, ok.flags = 3;
    CHECK_FALSE(fails(ok));
    Spec s = ok;
    s.align = s.half = true;
    CHECK(fails(s));  // both align_corners and half_pixel_centers
    s = ok, s.out_w = 0;
    CHECK(fails(s));  // output size 0
    s = ok, s.out_h = -3;
    CHECK(fails(s));  // negative output size
    s = ok, s.form = Form::Scale, s.scale_h = 0.1f;
    CHECK(fails(s));  // floor(2 * 0.1) = 0
    s = ok, s.form = Form::Scale, s.scale_w = -1.0f;
    CHECK(fails(s));  // negative scale
    s = ok, s.form = Form::Scale, s.scale_w = std::numeric_limits<float>::quiet_NaN();
    CHECK(fails(s));  // NaN scale
    s = ok, s.form = Form::Scale, s.scale_w = std::numeric_limits<float>::infinity();
    CHECK(fails(s));  // infinite scale
    s = ok, s.form = Form::Scale, s.scale_w = 1e30f;
    CHECK(fails(s));  // output size beyond INT32
    s = ok, s.out_h = 2000000000, s.out_w = 2000000000;
    CHECK(fails(s));  // output byte size overflows
    s = ok, s.c = 0;
    CHECK(fails(s));  // empty depth
    KernelNode node;
    node.tensor<OperandType::TENSOR_FLOAT32>(Dims{2, 3, 2}, std::vector<float>(12, 0.0f));
    node.scalar<OperandType::INT32>(4), node.scalar<OperandType::INT32>(4), node.scalar<OperandType::BOOL>(0);
    node.output(OperandType::TENSOR_FLOAT32);
    CHECK_FALSE(node.run(bilinear ? kernels_of<OperationType::RESIZE_BILINEAR>()
                                  : kernels_of<OperationType::RESIZE_NEAREST_NEIGHBOR>())
                    .has_value());
  }
}
