// Kernels of AVERAGE_POOL_2D, MAX_POOL_2D and L2_POOL_2D (nnhal/kernels/common/pool.hpp): every
// type (float32, float16, quant8 asymm, quant8 asymm signed) on random shapes, filter sizes,
// strides, explicit and implicit paddings, activations, zero points and both layouts, against a
// plain per-element reference written here (windows walked filter position by filter position,
// padded positions skipped); NHWC float32 / 8-bit run the SIMD family, the rest the plain
// kernel. Also: zero-sized batches, the quantized average's rounding (half away from zero) and
// the runtime errors.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "nnhal/kernels/average_pool_2d.hpp"
#include "nnhal/kernels/l2_pool_2d.hpp"
#include "nnhal/kernels/max_pool_2d.hpp"
#include "ops/kernel_test_util.hpp"

using nnhal::Dims;
using nnhal::Half;
using nnhal::OperandType;
using nnhal::OperationType;
using nnhal::test::KernelNode;
using nnhal::test::kernels_of;

namespace {

enum class Kind { Avg, Max, L2 };

const nnhal::OpKernel& kernels_for(Kind k) {
  if (k == Kind::Avg) return kernels_of<OperationType::AVERAGE_POOL_2D>();
  if (k == Kind::Max) return kernels_of<OperationType::MAX_POOL_2D>();
  return kernels_of<OperationType::L2_POOL_2D>();
}

/// One pooling case: NHWC sizes, window, explicit paddings (or an implicit scheme), activation.
struct Spec {
  std::uint32_t n = 1, h = 1, w = 1, c = 1;
  std::int32_t fh = 1, fw = 1, sh = 1, sw = 1;
  std::int32_t pt = 0, pb = 0, pl = 0, pr = 0;
  bool implicit = false;
  std::int32_t scheme = 2;
  std::int32_t act = 0;
  bool nchw = false;
  bool layout_input = true;
};

/// Explicit paddings of an implicit scheme (the reference's SAME rule).
void resolve(Spec& s) {
  if (!s.implicit) return;
  auto pad = [](std::int32_t in, std::int32_t stride, std::int32_t filter, std::int32_t& head, std::int32_t& tail) {
    head = tail = 0;
    const std::int32_t out = (in + stride - 1) / stride;
    const std::int32_t total = (out - 1) * stride + filter - in;
    if (total > 0) head = total / 2, tail = total - total / 2;
  };
  if (s.scheme == 1) {
    pad(static_cast<std::int32_t>(s.h), s.sh, s.fh, s.pt, s.pb);
    pad(static_cast<std::int32_t>(s.w), s.sw, s.fw, s.pl, s.pr);
  } else {
    s.pt = s.pb = s.pl = s.pr = 0;
  }
}

std::uint32_t out_size(std::uint32_t in, std::int32_t f, std::int32_t s, std::int32_t a, std::int32_t b) {
  return static_cast<std::uint32_t>((static_cast<std::int32_t>(in) - f + s + a + b) / s);
}

std::size_t nhwc_index(const Spec&, std::uint32_t H, std::uint32_t W, std::uint32_t C, std::size_t b, std::size_t y,
                       std::size_t x, std::size_t c) {
  return ((b * H + y) * W + x) * C + c;
}
std::size_t nchw_index(const Spec&, std::uint32_t H, std::uint32_t W, std::uint32_t C, std::size_t b, std::size_t y,
                       std::size_t x, std::size_t c) {
  return ((b * C + c) * H + y) * W + x;
}

/// The plain reference of pool `k` over `in` laid out as the spec says.
template <class E>
std::vector<E> reference(Kind k, const Spec& s, const std::vector<E>& in, float scale, std::int32_t zp) {
  constexpr bool kFloat = std::is_same_v<E, float> || std::is_same_v<E, Half>;
  const std::uint32_t oh = out_size(s.h, s.fh, s.sh, s.pt, s.pb), ow = out_size(s.w, s.fw, s.sw, s.pl, s.pr);
  auto idx = s.nchw ? nchw_index : nhwc_index;
  std::vector<E> out(std::size_t{s.n} * oh * ow * s.c);
  float flo = -std::numeric_limits<float>::infinity(), fhi = std::numeric_limits<float>::infinity();
  if (s.act == 1) flo = 0;
  if (s.act == 2) flo = -1, fhi = 1;
  if (s.act == 3) flo = 0, fhi = 6;
  std::int64_t qlo = 0, qhi = 0;
  if constexpr (!kFloat) {
    qlo = std::numeric_limits<E>::lowest(), qhi = std::numeric_limits<E>::max();
    auto q = [&](float f) { return zp + static_cast<std::int64_t>(std::round(f / scale)); };
    if (s.act == 1 || s.act == 3) qlo = std::max(qlo, q(0));
    if (s.act == 2) qlo = std::max(qlo, q(-1)), qhi = std::min(qhi, q(1));
    if (s.act == 3) qhi = std::min(qhi, q(6));
  }
  for (std::size_t b = 0; b < s.n; ++b)
    for (std::size_t oy = 0; oy < oh; ++oy)
      for (std::size_t ox = 0; ox < ow; ++ox)
        for (std::size_t c = 0; c < s.c; ++c) {
          float facc = k == Kind::Max ? std::numeric_limits<float>::lowest() : 0.0f;
          std::int64_t qacc = k == Kind::Max ? std::numeric_limits<std::int64_t>::lowest() : 0;
          std::int64_t count = 0;
          for (std::int32_t fy = 0; fy < s.fh; ++fy)
            for (std::int32_t fx = 0; fx < s.fw; ++fx) {
              const std::int64_t y = static_cast<std::int64_t>(oy) * s.sh - s.pt + fy;
              const std::int64_t x = static_cast<std::int64_t>(ox) * s.sw - s.pl + fx;
              if (y < 0 || x < 0 || y >= s.h || x >= s.w) continue;
              ++count;
              const E v = in[idx(s, s.h, s.w, s.c, b, static_cast<std::size_t>(y), static_cast<std::size_t>(x), c)];
              if constexpr (kFloat) {
                const float f = static_cast<float>(v);
                if (k == Kind::Max) facc = std::max(facc, f);
                if (k == Kind::Avg) facc += f;
                if (k == Kind::L2) facc += f * f;
              } else {
                if (k == Kind::Max) qacc = std::max<std::int64_t>(qacc, v);
                if (k == Kind::Avg) qacc += v;
              }
            }
          E& dst = out[idx(s, oh, ow, s.c, b, oy, ox, c)];
          if constexpr (kFloat) {
            float r = facc;
            if (k == Kind::Avg) r = facc / static_cast<float>(count);
            if (k == Kind::L2) r = std::sqrt(facc / static_cast<float>(count));
            dst = E(std::min(std::max(r, flo), fhi));
          } else {
            std::int64_t r = qacc;
            if (k == Kind::Avg) {
              // Round half away from zero: |sum| / count rounded half up, with the sum's sign.
              const std::int64_t mag = (std::llabs(qacc) * 2 + count) / (2 * count);
              r = qacc < 0 ? -mag : mag;
            }
            dst = static_cast<E>(std::min(std::max(r, qlo), qhi));
          }
        }
  return out;
}

/// Runs the kernel of `k` on the spec.
template <OperandType T>
nnhal::Status run_pool(KernelNode& node, Kind k, const Spec& s, const std::vector<nnhal::element_t<T>>& in,
                       float scale, std::int32_t zp) {
  const Dims dims = s.nchw ? Dims{s.n, s.c, s.h, s.w} : Dims{s.n, s.h, s.w, s.c};
  node.tensor<T>(dims, in, scale, zp);
  using enum OperandType;
  if (s.implicit) {
    node.scalar<INT32>(s.scheme);
  } else {
    node.scalar<INT32>(s.pl), node.scalar<INT32>(s.pr), node.scalar<INT32>(s.pt), node.scalar<INT32>(s.pb);
  }
  node.scalar<INT32>(s.sw), node.scalar<INT32>(s.sh), node.scalar<INT32>(s.fw), node.scalar<INT32>(s.fh);
  node.scalar<INT32>(s.act);
  if (s.layout_input) node.scalar<BOOL>(s.nchw ? 1 : 0);
  node.output(T, scale, zp);
  return node.run(kernels_for(k));
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
bool close(E a, E b) {
  if constexpr (std::is_same_v<E, float>) {
    return std::fabs(a - b) <= 1e-6f * std::max(1.0f, std::fabs(b));
  } else if constexpr (std::is_same_v<E, Half>) {
    return std::fabs(static_cast<float>(a) - static_cast<float>(b)) <=
           1e-3f * std::max(1.0f, std::fabs(static_cast<float>(b)));
  } else {
    return a == b;
  }
}

Spec random_spec(std::mt19937& gen) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen); };
  Spec s;
  s.n = static_cast<std::uint32_t>(pick(0, 4) == 0 ? 0 : pick(1, 2));
  s.h = static_cast<std::uint32_t>(pick(1, 9));
  s.w = static_cast<std::uint32_t>(pick(1, 9));
  s.c = static_cast<std::uint32_t>(pick(0, 2) == 0 ? pick(1, 3) : pick(4, 37));
  s.fh = pick(1, 4), s.fw = pick(1, 4), s.sh = pick(1, 3), s.sw = pick(1, 3);
  s.implicit = pick(0, 1) == 1;
  s.scheme = pick(1, 2);
  s.pt = pick(0, s.fh - 1), s.pb = pick(0, s.fh - 1), s.pl = pick(0, s.fw - 1), s.pr = pick(0, s.fw - 1);
  s.act = pick(0, 3);
  s.nchw = pick(0, 1) == 1;
  s.layout_input = s.nchw || pick(0, 1) == 1;
  resolve(s);
  return s;
}

bool fits(const Spec& s) {
  return static_cast<std::int64_t>(s.h) + s.pt + s.pb >= s.fh && static_cast<std::int64_t>(s.w) + s.pl + s.pr >= s.fw;
}

template <OperandType T>
void random_cases(Kind k, int count) {
  using E = nnhal::element_t<T>;
  std::mt19937 gen(static_cast<unsigned>(static_cast<int>(T) * 31 + static_cast<int>(k)));
  int ran = 0;
  while (ran < count) {
    const Spec s = random_spec(gen);
    if (!fits(s)) continue;
    ++ran;
    const float scale = std::uniform_real_distribution<float>(0.01f, 0.2f)(gen);
    const std::int32_t zp = std::is_same_v<E, std::uint8_t> ? std::uniform_int_distribution<int>(0, 255)(gen)
                            : std::is_same_v<E, std::int8_t> ? std::uniform_int_distribution<int>(-128, 127)(gen)
                                                             : 0;
    const auto in = random_values<E>(gen, std::size_t{s.n} * s.h * s.w * s.c);
    INFO("n ", s.n, " h ", s.h, " w ", s.w, " c ", s.c, " filter ", s.fh, "x", s.fw, " stride ", s.sh, "x", s.sw,
         " pads t/b/l/r ", s.pt, "/", s.pb, "/", s.pl, "/", s.pr, " implicit ", s.implicit, " act ", s.act, " nchw ",
         s.nchw, " zp ", zp);
    KernelNode node;
    const auto status = run_pool<T>(node, k, s, in, scale, zp);
    REQUIRE(status.has_value());
    const auto got = node.values<T>(0);
    const auto want = reference(k, s, in, scale, zp);
    REQUIRE(got.size() == want.size());
    std::size_t bad = 0;
    for (std::size_t i = 0; i < got.size(); ++i) bad += close(got[i], want[i]) ? 0 : 1;
    CHECK(bad == 0);
  }
}

}  // namespace

TEST_CASE("AVERAGE_POOL_2D: every type against the plain reference") {
  random_cases<OperandType::TENSOR_FLOAT32>(Kind::Avg, 150);
  random_cases<OperandType::TENSOR_FLOAT16>(Kind::Avg, 60);
  random_cases<OperandType::TENSOR_QUANT8_ASYMM>(Kind::Avg, 150);
  random_cases<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>(Kind::Avg, 150);
}

TEST_CASE("MAX_POOL_2D: every type against the plain reference") {
  random_cases<OperandType::TENSOR_FLOAT32>(Kind::Max, 150);
  random_cases<OperandType::TENSOR_FLOAT16>(Kind::Max, 60);
  random_cases<OperandType::TENSOR_QUANT8_ASYMM>(Kind::Max, 150);
  random_cases<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>(Kind::Max, 150);
}

TEST_CASE("L2_POOL_2D: float types against the plain reference") {
  random_cases<OperandType::TENSOR_FLOAT32>(Kind::L2, 150);
  random_cases<OperandType::TENSOR_FLOAT16>(Kind::L2, 60);
}

TEST_CASE("quantized AVERAGE_POOL_2D rounds half away from zero") {
  // One 1x2 window: sums 1 and -1 over 2 elements are +-0.5, rounded away from zero; 3 over
  // 2 is 1.5 -> 2; -3 over 2 -> -2.
  Spec s;
  s.h = 1, s.w = 2, s.c = 4, s.fh = 1, s.fw = 2, s.sh = 1, s.sw = 2;
  KernelNode node;
  const std::vector<std::int8_t> in{0, 0, 1, -1, 1, -1, 2, -2};
  REQUIRE(run_pool<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>(node, Kind::Avg, s, in, 1.0f, 0).has_value());
  CHECK(node.values<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>(0) == std::vector<std::int8_t>{1, -1, 2, -2});
  KernelNode u;
  const std::vector<std::uint8_t> uin{0, 1, 2, 3, 1, 2, 2, 4};
  REQUIRE(run_pool<OperandType::TENSOR_QUANT8_ASYMM>(u, Kind::Avg, s, uin, 1.0f, 0).has_value());
  CHECK(u.values<OperandType::TENSOR_QUANT8_ASYMM>(0) == std::vector<std::uint8_t>{1, 2, 2, 4});
}

TEST_CASE("pooling: a one-pixel NCHW input padded to a larger output") {
  // [1, 3, 1, 1] in NCHW has unit channel stride like NHWC, but its 2x2 output does not.
  Spec s;
  s.h = 1, s.w = 1, s.c = 3, s.fh = 2, s.fw = 2, s.pt = s.pb = s.pl = s.pr = 1, s.nchw = true;
  const std::vector<float> in{1.0f, -2.0f, 3.0f};
  for (Kind k : {Kind::Avg, Kind::Max, Kind::L2}) {
    KernelNode node;
    REQUIRE(run_pool<OperandType::TENSOR_FLOAT32>(node, k, s, in, 0.0f, 0).has_value());
    CHECK(node.out(0).dims == Dims{1, 3, 2, 2});
    CHECK(node.values<OperandType::TENSOR_FLOAT32>(0) == reference(k, s, in, 0.0f, 0));
  }
  const std::vector<std::uint8_t> qin{1, 200, 3};
  for (Kind k : {Kind::Avg, Kind::Max}) {
    KernelNode node;
    REQUIRE(run_pool<OperandType::TENSOR_QUANT8_ASYMM>(node, k, s, qin, 0.5f, 7).has_value());
    CHECK(node.values<OperandType::TENSOR_QUANT8_ASYMM>(0) == reference(k, s, qin, 0.5f, 7));
  }
}

TEST_CASE("pooling: zero-sized batch gives an empty output") {
  Spec s;
  s.n = 0, s.h = 4, s.w = 4, s.c = 3, s.fh = 2, s.fw = 2, s.sh = 2, s.sw = 2;
  KernelNode node;
  REQUIRE(run_pool<OperandType::TENSOR_FLOAT32>(node, Kind::Max, s, {}, 0.0f, 0).has_value());
  CHECK(node.out(0).dims == Dims{0, 2, 2, 3});
}

TEST_CASE("pooling: runtime errors") {
  const auto fails = [](Spec s, Kind k = Kind::Avg) {
    KernelNode node;
    const std::vector<float> in(std::size_t{s.n} * s.h * s.w * s.c, 1.0f);
    return !run_pool<OperandType::TENSOR_FLOAT32>(node, k, s, in, 0.0f, 0).has_value();
  };
  Spec ok;
  ok.h = 4, ok.w = 4, ok.c = 2, ok.fh = 2, ok.fw = 2;
  CHECK_FALSE(fails(ok));
  Spec s = ok;
  s.sh = 0;
  CHECK(fails(s));  // non-positive stride
  s = ok, s.fw = 0;
  CHECK(fails(s));  // non-positive filter
  s = ok, s.fh = 5;
  CHECK(fails(s));  // filter larger than the padded input
  s = ok, s.pl = 2;
  CHECK(fails(s));  // padding not smaller than the filter
  s = ok, s.pb = -1;
  CHECK(fails(s));  // negative padding
  s = ok, s.act = 4;
  CHECK(fails(s));  // undefined activation
  s = ok, s.implicit = true, s.scheme = 3;
  CHECK(fails(s));  // undefined padding scheme
  s = ok, s.w = 0;
  CHECK(fails(s));  // empty width
  // Rank 3 input.
  KernelNode node;
  node.tensor<OperandType::TENSOR_FLOAT32>(Dims{4, 4, 2}, std::vector<float>(32, 0.0f));
  for (std::int32_t v : {2, 1, 1, 2, 2, 0}) node.scalar<OperandType::INT32>(v);
  node.output(OperandType::TENSOR_FLOAT32);
  CHECK_FALSE(node.run(kernels_for(Kind::Max)).has_value());
}
