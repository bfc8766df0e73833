// FULLY_CONNECTED kernels: shape inference, float / half / quantized results against values
// computed here in double precision, activations, requantization ties, zero-sized batch.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "nnhal/ops/fully_connected.hpp"
#include "ops/kernel_test_util.hpp"
#include "nnhal/kernels/fully_connected.hpp"

using nnhal::Dims;
using nnhal::Half;
using nnhal::OperandType;
using nnhal::test::KernelNode;
namespace fc = nnhal::kernels::fully_connected;

namespace {

template <OperandType T>
struct FcTag {
  static constexpr OperandType type = T;
};

template <OperandType T>
std::vector<nnhal::element_t<T>> fc_values(const std::vector<double>& v) {
  std::vector<nnhal::element_t<T>> out;
  for (double x : v) {
    if constexpr (T == OperandType::TENSOR_FLOAT16)
      out.push_back(Half(static_cast<float>(x)));
    else
      out.push_back(static_cast<nnhal::element_t<T>>(x));
  }
  return out;
}

/// out[b][u] = clamp(bias[u] + sum_k in[b][k] * w[u][k]) in double.
std::vector<double> fc_expected(const std::vector<double>& in, const std::vector<double>& w,
                                const std::vector<double>& bias, std::size_t input_size,
                                double lo, double hi) {
  const std::size_t units = bias.size(), batch = in.size() / input_size;
  std::vector<double> out;
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t u = 0; u < units; ++u) {
      double s = bias[u];
      for (std::size_t k = 0; k < input_size; ++k) s += in[b * input_size + k] * w[u * input_size + k];
      out.push_back(std::clamp(s, lo, hi));
    }
  return out;
}

struct ActBounds {
  std::int32_t code;
  double lo, hi;
};
constexpr double kInf = std::numeric_limits<double>::infinity();
const ActBounds kActs[] = {{0, -kInf, kInf}, {1, 0.0, kInf}, {2, -1.0, 1.0}, {3, 0.0, 6.0}};

std::uint32_t next_random(std::uint32_t& state) {
  state = state * 1664525u + 1013904223u;
  return state >> 8;
}

}  // namespace

TEST_CASE_TEMPLATE("FULLY_CONNECTED float: rank 2..4 input, bias, every activation", Tag,
                   FcTag<OperandType::TENSOR_FLOAT32>, FcTag<OperandType::TENSOR_FLOAT16>) {
  constexpr OperandType T = Tag::type;
  // Dyadic values: every product and sum is exact in half and float, so results are exact.
  const std::vector<double> in = {1, 2, -1, 0.5, -2, 0.25, 3, 1, 0, -0.5, 1.5, 2};
  const std::vector<double> w = {1, 0.5, -1, 2, -0.25, 1, 0.5, -1, 2, 2, 2, 2};
  const std::vector<double> bias = {0.5, -1, -3};
  for (const Dims& in_dims : {Dims{3, 4}, Dims{3, 2, 2}, Dims{1, 3, 2, 2}}) {
    for (const ActBounds& act : kActs) {
      CAPTURE(act.code);
      KernelNode node;
      node.tensor<T>(in_dims, fc_values<T>(in));
      node.tensor<T>({3, 4}, fc_values<T>(w));
      node.tensor<T>({3}, fc_values<T>(bias));
      node.scalar<OperandType::INT32>(act.code);
      node.output(T);
      REQUIRE(node.run(nnhal::test::kernels_of<nnhal::OperationType::FULLY_CONNECTED>()));
      CHECK(node.out(0).dims == Dims{3, 3});
      CHECK(node.out(0).rank_known);
      const auto want = fc_expected(in, w, bias, 4, act.lo, act.hi);
      const auto got = node.values<T>(0);
      REQUIRE(got.size() == want.size());
      for (std::size_t i = 0; i < want.size(); ++i) CHECK(static_cast<double>(static_cast<float>(got[i])) == want[i]);
    }
  }
}

TEST_CASE("FULLY_CONNECTED half accumulates in float and rounds once") {
  // 1 + 2^-11 + 2^-11 = 1 + 2^-10. Rounding to half after each addition would give 1 (the tie
  // 1 + 2^-11 rounds to even), twice.
  const Half tiny(0.00048828125f);  // 2^-11
  KernelNode node;
  node.tensor<OperandType::TENSOR_FLOAT16>({1, 3}, {Half(1.0f), tiny, tiny});
  node.tensor<OperandType::TENSOR_FLOAT16>({1, 3}, {Half(1.0f), Half(1.0f), Half(1.0f)});
  node.tensor<OperandType::TENSOR_FLOAT16>({1}, {Half(0.0f)});
  node.scalar<OperandType::INT32>(0);
  node.output(OperandType::TENSOR_FLOAT16);
  REQUIRE(node.run(nnhal::test::kernels_of<nnhal::OperationType::FULLY_CONNECTED>()));
  CHECK(static_cast<float>(node.values<OperandType::TENSOR_FLOAT16>(0)[0]) == 1.0f + 0.0009765625f);
}

TEST_CASE("FULLY_CONNECTED quantized rescaling rounds twice, as TFLite does") {
  // real multiplier 0.25 = 2^30 * 2^-31 with a right shift of 1. TFLite first rounds acc / 2
  // half up (SaturatingRoundingDoublingHighMul), then rounds that / 2 half away from zero
  // (RoundingDivideByPOT), so 145 / 4 = 36.25 gives 37 and 1 / 4 gives 1. Hand-computed.
  const std::vector<std::int32_t> acc = {145, 146, 147, -145, -146, -147, 2, -2, 1, -1, 3};
  const std::vector<std::int32_t> want = {37, 37, 37, -36, -37, -37, 1, -1, 1, 0, 1};
  std::vector<std::int32_t> bias;
  for (std::int32_t a : acc) bias.push_back(a - 1);  // x = w = 1: acc = bias + 1
  const auto n = static_cast<std::uint32_t>(acc.size());
  KernelNode node;
  node.tensor<OperandType::TENSOR_QUANT8_ASYMM>({1, 1}, {1}, 0.5f, 0);
  node.tensor<OperandType::TENSOR_QUANT8_ASYMM>({n, 1}, std::vector<std::uint8_t>(n, 1), 0.5f, 0);
  node.tensor<OperandType::TENSOR_INT32>({n}, bias, 0.25f, 0);
  node.scalar<OperandType::INT32>(0);
  node.output(OperandType::TENSOR_QUANT8_ASYMM, 1.0f, 128);
  REQUIRE(node.run(nnhal::test::kernels_of<nnhal::OperationType::FULLY_CONNECTED>()));
  const auto got = node.values<OperandType::TENSOR_QUANT8_ASYMM>(0);
  for (std::size_t i = 0; i < acc.size(); ++i) {
    CAPTURE(acc[i]);
    CHECK(got[i] - 128 == want[i]);
  }
}

namespace {
/// floor(a / b) for b > 0.
std::int64_t floor_div(std::int64_t a, std::int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/// TFLite's rescaling of acc by a real multiplier 2^p: for p >= 0 exact (a left shift), for p < 0
/// the two-step rounding shown above (half up on acc / 2, then half away from zero on / 2^(-p-1)).
std::int64_t rescale_pow2(std::int64_t acc, int p) {
  if (p >= 0) return acc * (std::int64_t{1} << p);
  const std::int64_t half = floor_div(acc + 1, 2);
  return std::llround(std::ldexp(static_cast<double>(half), p + 1));
}
}  // namespace

TEST_CASE_TEMPLATE("FULLY_CONNECTED quantized: integer accumulation, rescaling, clamps", Tag,
                   FcTag<OperandType::TENSOR_QUANT8_ASYMM>,
                   FcTag<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>) {
  constexpr OperandType T = Tag::type;
  using E = nnhal::element_t<T>;
  constexpr bool kSigned = T == OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
  const std::int32_t qmin = kSigned ? -128 : 0, qmax = kSigned ? 127 : 255;
  const std::int32_t in_zp = kSigned ? -3 : 125, w_zp = kSigned ? 4 : 130, out_zp = kSigned ? -20 : 100;
  const std::size_t batch = 4, input_size = 5, units = 3;

  struct Case {
    float in_scale, w_scale, out_scale;
    int pow2;  ///< real multiplier = 2^pow2; 99 = not a power of two (checked to +-1)
  };
  const Case cases[] = {
      {0.5f, 0.5f, 1.0f, -2},      {0.5f, 0.5f, 0.5f, -1},  {0.25f, 0.25f, 0.5f, -3},
      {1.0f, 0.5f, 0.25f, 1},      {0.5f, 0.25f, 0.03125f, 2},  // multiplier > 1 (1.2 rule)
      {0.1f, 0.3f, 0.7f, 99},
  };
  for (const Case& c : cases) {
    const double real = static_cast<double>(c.in_scale * c.w_scale) / c.out_scale;
    CAPTURE(real);
    std::uint32_t state = 12345;
    std::vector<E> x(batch * input_size), w(units * input_size);
    std::vector<std::int32_t> bias(units);
    for (auto& v : x) v = static_cast<E>(in_zp + static_cast<std::int32_t>(next_random(state) % 21) - 10);
    for (auto& v : w) v = static_cast<E>(w_zp + static_cast<std::int32_t>(next_random(state) % 21) - 10);
    for (auto& v : bias) v = static_cast<std::int32_t>(next_random(state) % 601) - 300;
    x[0] = static_cast<E>(qmax);  // storage extremes in the data too
    w[1] = static_cast<E>(qmin);

    for (const auto& act : kActs) {
      CAPTURE(act.code);
      KernelNode node;
      node.tensor<T>({batch, input_size}, x, c.in_scale, in_zp);
      node.tensor<T>({units, input_size}, w, c.w_scale, w_zp);
      node.tensor<OperandType::TENSOR_INT32>({units}, bias, c.in_scale * c.w_scale, 0);
      node.scalar<OperandType::INT32>(act.code);
      node.output(T, c.out_scale, out_zp);
      REQUIRE(node.run(nnhal::test::kernels_of<nnhal::OperationType::FULLY_CONNECTED>()));
      const auto got = node.values<T>(0);
      // Activation bounds in the quantized domain, then the storage range.
      const auto q = [&](double r) { return out_zp + static_cast<std::int32_t>(std::lround(r / c.out_scale)); };
      const std::int32_t lo = std::max(qmin, std::isinf(act.lo) ? qmin : q(act.lo));
      const std::int32_t hi = std::min(qmax, std::isinf(act.hi) ? qmax : q(act.hi));
      for (std::size_t b = 0; b < batch; ++b)
        for (std::size_t u = 0; u < units; ++u) {
          std::int64_t acc = bias[u];
          for (std::size_t k = 0; k < input_size; ++k)
            acc += (std::int64_t{x[b * input_size + k]} - in_zp) * (std::int64_t{w[u * input_size + k]} - w_zp);
          CAPTURE(acc);
          const std::int64_t g = got[b * units + u];
          if (c.pow2 != 99) {
            CHECK(g == std::clamp<std::int64_t>(rescale_pow2(acc, c.pow2) + out_zp, lo, hi));
          } else {
            const double exact = static_cast<double>(acc) * real;
            const std::int64_t near = std::clamp<std::int64_t>(std::llround(exact) + out_zp, lo, hi);
            CHECK(std::abs(g - near) <= 1);
            if (std::abs(exact - std::floor(exact) - 0.5) > 1e-3) CHECK(g == near);
          }
        }
    }
  }
}

TEST_CASE("FULLY_CONNECTED quantized output saturates at both storage ends") {
  KernelNode node;
  node.tensor<OperandType::TENSOR_QUANT8_ASYMM>({2, 2}, {255, 255, 0, 0}, 1.0f, 0);
  node.tensor<OperandType::TENSOR_QUANT8_ASYMM>({1, 2}, {255, 255}, 1.0f, 128);
  node.tensor<OperandType::TENSOR_INT32>({1}, {0}, 1.0f, 0);
  node.scalar<OperandType::INT32>(0);
  node.output(OperandType::TENSOR_QUANT8_ASYMM, 1.0f, 128);
  REQUIRE(node.run(nnhal::test::kernels_of<nnhal::OperationType::FULLY_CONNECTED>()));
  // batch 0: 2 * 255 * 127 + 128 -> 255; batch 1: 0 + 128.
  CHECK(node.values<OperandType::TENSOR_QUANT8_ASYMM>(0) == std::vector<std::uint8_t>{255, 128});

  KernelNode neg;
  neg.tensor<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>({1, 2}, {127, 127}, 1.0f, 0);
  neg.tensor<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>({1, 2}, {-128, -128}, 1.0f, 0);
  neg.tensor<OperandType::TENSOR_INT32>({1}, {5}, 1.0f, 0);
  neg.scalar<OperandType::INT32>(0);
  neg.output(OperandType::TENSOR_QUANT8_ASYMM_SIGNED, 1.0f, 0);
  REQUIRE(neg.run(nnhal::test::kernels_of<nnhal::OperationType::FULLY_CONNECTED>()));
  CHECK(neg.values<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>(0) == std::vector<std::int8_t>{-128});
}

TEST_CASE("FULLY_CONNECTED zero-sized batch") {
  KernelNode node;
  node.tensor<OperandType::TENSOR_FLOAT32>({0, 4}, {});
  node.tensor<OperandType::TENSOR_FLOAT32>({3, 4}, std::vector<float>(12, 1.0f));
  node.tensor<OperandType::TENSOR_FLOAT32>({3}, {1, 2, 3});
  node.scalar<OperandType::INT32>(0);
  node.output(OperandType::TENSOR_FLOAT32);
  REQUIRE(node.run(nnhal::test::kernels_of<nnhal::OperationType::FULLY_CONNECTED>()));
  CHECK(node.out(0).dims == Dims{0, 3});

  KernelNode q;
  q.tensor<OperandType::TENSOR_QUANT8_ASYMM>({0, 2, 2}, {}, 0.5f, 0);
  q.tensor<OperandType::TENSOR_QUANT8_ASYMM>({2, 4}, std::vector<std::uint8_t>(8, 1), 0.5f, 0);
  q.tensor<OperandType::TENSOR_INT32>({2}, {0, 0}, 0.25f, 0);
  q.scalar<OperandType::INT32>(0);
  q.output(OperandType::TENSOR_QUANT8_ASYMM, 1.0f, 0);
  REQUIRE(q.run(nnhal::test::kernels_of<nnhal::OperationType::FULLY_CONNECTED>()));
  CHECK(q.out(0).dims == Dims{0, 2});
}

TEST_CASE("FULLY_CONNECTED shape inference rejects inconsistent shapes") {
  struct Case {
    Dims in, w, bias;
  };
  const Case bad[] = {
      {{12}, {3, 4}, {3}},              // input rank 1
      {{1, 1, 1, 3, 4}, {3, 4}, {3}},   // input rank 5
      {{3, 4}, {1, 3, 4}, {3}},         // weights rank 3
      {{3, 4}, {3, 4}, {1, 3}},         // bias rank 2
      {{2, 5}, {3, 4}, {3}},            // 10 elements, input_size 4
      {{3, 4}, {3, 4}, {2}},            // bias length != num_units
      {{3, 4}, {0, 4}, {0}},            // no units
  };
  for (const Case& c : bad) {
    KernelNode node;
    node.tensor<OperandType::TENSOR_FLOAT32>(c.in, std::vector<float>(c.in.element_count()));
    node.tensor<OperandType::TENSOR_FLOAT32>(c.w, std::vector<float>(c.w.element_count()));
    node.tensor<OperandType::TENSOR_FLOAT32>(c.bias, std::vector<float>(c.bias.element_count()));
    node.scalar<OperandType::INT32>(0);
    node.output(OperandType::TENSOR_FLOAT32);
    CHECK_FALSE(node.infer(nnhal::test::kernels_of<nnhal::OperationType::FULLY_CONNECTED>()));
  }
}

TEST_CASE("FULLY_CONNECTED runtime errors: bias scale, activation code") {
  KernelNode node;
  node.tensor<OperandType::TENSOR_QUANT8_ASYMM>({1, 2}, {1, 2}, 0.5f, 0);
  node.tensor<OperandType::TENSOR_QUANT8_ASYMM>({1, 2}, {1, 2}, 0.5f, 0);
  node.tensor<OperandType::TENSOR_INT32>({1}, {0}, 0.3f, 0);  // should be 0.25
  node.scalar<OperandType::INT32>(0);
  node.output(OperandType::TENSOR_QUANT8_ASYMM, 1.0f, 0);
  REQUIRE(node.infer(nnhal::test::kernels_of<nnhal::OperationType::FULLY_CONNECTED>()));
  CHECK_FALSE(node.select(nnhal::test::kernels_of<nnhal::OperationType::FULLY_CONNECTED>()));

  KernelNode act;
  act.tensor<OperandType::TENSOR_FLOAT32>({1, 2}, {1, 2});
  act.tensor<OperandType::TENSOR_FLOAT32>({1, 2}, {1, 2});
  act.tensor<OperandType::TENSOR_FLOAT32>({1}, {0});
  act.scalar<OperandType::INT32>(4);
  act.output(OperandType::TENSOR_FLOAT32);
  CHECK_FALSE(act.run(nnhal::test::kernels_of<nnhal::OperationType::FULLY_CONNECTED>()));
}

TEST_CASE("FULLY_CONNECTED reference_f32 and the SIMD kernel give the exact result on dyadic data") {
  // Multiples of 1/8 in [-4, 4]: every product and partial sum is exact in float whatever the
  // summation order, so both must equal the double computation. (The SIMD kernel's own rounding
  // bounds are tested with the kernel.)
  std::uint32_t state = 7;
  auto rnd = [&] { return static_cast<double>(static_cast<int>(next_random(state) % 65) - 32) / 8.0; };
  for (std::size_t batch : {1u, 2u, 5u})
    for (std::size_t input_size : {1u, 3u, 8u, 17u, 33u})
      for (std::size_t units : {1u, 4u, 7u, 9u}) {
        CAPTURE(batch);
        CAPTURE(input_size);
        CAPTURE(units);
        std::vector<double> in(batch * input_size), w(units * input_size), bias(units);
        for (auto& v : in) v = rnd();
        for (auto& v : w) v = rnd();
        for (auto& v : bias) v = rnd();
        const auto want = fc_expected(in, w, bias, input_size, -20.0, 30.0);
        const auto fin = fc_values<OperandType::TENSOR_FLOAT32>(in);
        const auto fw = fc_values<OperandType::TENSOR_FLOAT32>(w);
        const auto fb = fc_values<OperandType::TENSOR_FLOAT32>(bias);
        std::vector<float> ref(batch * units), vec(batch * units);
        fc::reference_f32(fin.data(), fw.data(), fb.data(), ref.data(), batch, input_size, units, -20.0f, 30.0f);
        nnhal::simd::fully_connected_f32(fin.data(), fw.data(), fb.data(), vec.data(), batch,
                                         input_size, units, -20.0f, 30.0f);
        for (std::size_t i = 0; i < want.size(); ++i) {
          CHECK(static_cast<double>(ref[i]) == want[i]);
          CHECK(static_cast<double>(vec[i]) == want[i]);
        }
      }
}
