// Activation kernels: RELU, RELU1, RELU6, LOGISTIC, TANH, ELU, HARD_SWISH and PRELU over their
// float and quant8 types. Quantized results are compared with the real function of the
// dequantized input, quantized with the output's parameters (within one step, the corpus
// criterion); float results with the definitions in double precision.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "ops/kernel_test_util.hpp"
#include "nnhal/kernels/elu.hpp"
#include "nnhal/kernels/hard_swish.hpp"
#include "nnhal/kernels/logistic.hpp"
#include "nnhal/kernels/prelu.hpp"
#include "nnhal/kernels/relu.hpp"
#include "nnhal/kernels/relu1.hpp"
#include "nnhal/kernels/relu6.hpp"
#include "nnhal/kernels/tanh.hpp"

using nnhal::Dims;
using nnhal::Half;
using nnhal::OperandType;
using nnhal::OperationType;
using nnhal::test::KernelNode;
using nnhal::test::kernels_of;

namespace {

template <class E>
constexpr OperandType quant_type() {
  return std::is_signed_v<E> ? OperandType::TENSOR_QUANT8_ASYMM_SIGNED : OperandType::TENSOR_QUANT8_ASYMM;
}

/// Every stored value of E, in order.
template <class E>
std::vector<E> all_values() {
  std::vector<E> v;
  for (int i = std::numeric_limits<E>::min(); i <= std::numeric_limits<E>::max(); ++i) v.push_back(static_cast<E>(i));
  return v;
}

/// Runs unary Op on every stored value of E (input scale / zp) into an output of (oscale, ozp)
/// and checks each result against f(real input) quantized, within `tolerance` steps.
template <OperationType Op, class E>
void check_quant_unary(float scale, std::int32_t zp, float oscale, std::int32_t ozp, double (*f)(double),
                       double tolerance = 1.0) {
  constexpr OperandType T = quant_type<E>();
  const std::vector<E> in = all_values<E>();
  KernelNode node;
  node.tensor<T>({static_cast<std::uint32_t>(in.size())}, in, scale, zp);
  node.output(T, oscale, ozp);
  const auto s = node.run(kernels_of<Op>());
  REQUIRE_MESSAGE(s, std::string(s ? "" : s.error().c_str()));
  const auto got = node.values<T>(0);
  const double lo = std::numeric_limits<E>::min(), hi = std::numeric_limits<E>::max();
  for (std::size_t i = 0; i < in.size(); ++i) {
    const double real = f((in[i] - zp) * static_cast<double>(scale));
    const double want = std::min(hi, std::max(lo, std::round(real / oscale) + ozp));
    CAPTURE(static_cast<int>(in[i]));
    CHECK(std::abs(got[i] - want) <= tolerance);
  }
}

/// Runs unary Op on float32 and float16 data and compares with f in double.
template <OperationType Op>
void check_float_unary(const std::vector<float>& in, double (*f)(double)) {
  const auto n = static_cast<std::uint32_t>(in.size());
  KernelNode node;
  node.tensor<OperandType::TENSOR_FLOAT32>({n}, in);
  node.output(OperandType::TENSOR_FLOAT32);
  REQUIRE(node.run(kernels_of<Op>()));
  const auto got = node.values<OperandType::TENSOR_FLOAT32>(0);
  for (std::size_t i = 0; i < n; ++i) CHECK(got[i] == doctest::Approx(f(in[i])).epsilon(1e-6));

  std::vector<Half> h;
  for (float x : in) h.push_back(Half(x));
  KernelNode half;
  half.tensor<OperandType::TENSOR_FLOAT16>({n}, h);
  half.output(OperandType::TENSOR_FLOAT16);
  REQUIRE(half.run(kernels_of<Op>()));
  const auto hgot = half.values<OperandType::TENSOR_FLOAT16>(0);
  for (std::size_t i = 0; i < n; ++i) {
    const double want = f(static_cast<float>(h[i]));
    CHECK(std::abs(static_cast<float>(hgot[i]) - want) <= std::abs(want) * 0x1p-11 + 0x1p-24);
  }
}

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double hard_swish(double x) { return x * std::min(6.0, std::max(0.0, x + 3.0)) / 6.0; }

}  // namespace

TEST_CASE("RELU, RELU1 and RELU6 clamp float data") {
  const std::vector<float> in{-7.0f, -1.5f, -0.5f, 0.0f, 0.5f, 1.5f, 5.0f, 6.5f};
  check_float_unary<OperationType::RELU>(in, [](double x) { return std::max(0.0, x); });
  check_float_unary<OperationType::RELU1>(in, [](double x) { return std::min(1.0, std::max(-1.0, x)); });
  check_float_unary<OperationType::RELU6>(in, [](double x) { return std::min(6.0, std::max(0.0, x)); });
}

TEST_CASE_TEMPLATE("RELU, RELU1 and RELU6 clamp the stored values with the input's quantization", E, std::uint8_t,
                   std::int8_t) {
  const std::int32_t zp = std::is_signed_v<E> ? -28 : 100;
  // The output keeps the input's quantization, so the clamp is exact: tolerance 0.
  check_quant_unary<OperationType::RELU, E>(0.05f, zp, 0.05f, zp, [](double x) { return std::max(0.0, x); }, 0.0);
  check_quant_unary<OperationType::RELU1, E>(0.05f, zp, 0.05f, zp,
                                             [](double x) { return std::min(1.0, std::max(-1.0, x)); }, 0.0);
  check_quant_unary<OperationType::RELU6, E>(0.05f, zp, 0.05f, zp,
                                             [](double x) { return std::min(6.0, std::max(0.0, x)); }, 0.0);
}

TEST_CASE("RELU refuses a quantized output whose quantization differs from the input's") {
  KernelNode node;
  node.tensor<OperandType::TENSOR_QUANT8_ASYMM>({2}, {1, 2}, 0.5f, 0);
  node.output(OperandType::TENSOR_QUANT8_ASYMM, 0.25f, 0);
  const auto s = node.run(kernels_of<OperationType::RELU>());
  REQUIRE_FALSE(s);
  CHECK(std::string(s.error().c_str()).find("RELU output has scale 0.25") != std::string::npos);
}

TEST_CASE("LOGISTIC and TANH on float data") {
  const std::vector<float> in{-8.0f, -2.5f, -0.5f, 0.0f, 0.25f, 1.0f, 4.0f, 10.0f};
  check_float_unary<OperationType::LOGISTIC>(in, sigmoid);
  check_float_unary<OperationType::TANH>(in, [](double x) { return std::tanh(x); });
}

TEST_CASE_TEMPLATE("quantized LOGISTIC and TANH are within one step of the real functions", E, std::uint8_t,
                   std::int8_t) {
  constexpr bool is_signed = std::is_signed_v<E>;
  const std::int32_t off = is_signed ? -128 : 0;
  for (float scale : {0.01f, 0.0625f, 0.1f, 0.5f}) {
    CAPTURE(scale);
    for (std::int32_t zp : {0, 128, 200}) {
      CAPTURE(zp);
      check_quant_unary<OperationType::LOGISTIC, E>(scale, zp + off, 1.0f / 256, is_signed ? -128 : 0, sigmoid);
      check_quant_unary<OperationType::TANH, E>(scale, zp + off, 1.0f / 128, is_signed ? 0 : 128,
                                                [](double x) { return std::tanh(x); });
    }
  }
}

TEST_CASE("quantized LOGISTIC and TANH need the fixed output quantization") {
  KernelNode logistic;
  logistic.tensor<OperandType::TENSOR_QUANT8_ASYMM>({1}, {3}, 0.5f, 0);
  logistic.output(OperandType::TENSOR_QUANT8_ASYMM, 1.0f / 128, 0);
  const auto s = logistic.run(kernels_of<OperationType::LOGISTIC>());
  REQUIRE_FALSE(s);
  CHECK(std::string(s.error().c_str()).find("LOGISTIC output") != std::string::npos);

  KernelNode tanh;
  tanh.tensor<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>({1}, {3}, 0.5f, 0);
  tanh.output(OperandType::TENSOR_QUANT8_ASYMM_SIGNED, 1.0f / 128, 1);  // signed TANH needs zeroPoint 0
  CHECK_FALSE(tanh.run(kernels_of<OperationType::TANH>()));
}

TEST_CASE("LOGISTIC and TANH accept zero-sized tensors and refuse rank 5") {
  KernelNode empty;
  empty.tensor<OperandType::TENSOR_FLOAT32>({0, 3}, {});
  empty.output(OperandType::TENSOR_FLOAT32);
  REQUIRE(empty.run(kernels_of<OperationType::LOGISTIC>()));
  CHECK(empty.out(0).dims == Dims{0, 3});

  KernelNode rank5;
  rank5.tensor<OperandType::TENSOR_FLOAT32>({1, 1, 1, 1, 1}, {0.0f});
  rank5.output(OperandType::TENSOR_FLOAT32);
  CHECK_FALSE(rank5.infer(kernels_of<OperationType::TANH>()));
}

TEST_CASE("ELU with its alpha scalar on float32 and float16") {
  const std::vector<float> in{-4.0f, -1.0f, -0.25f, 0.0f, 0.5f, 3.0f};
  for (float alpha : {1.0f, 0.5f, 2.0f}) {
    CAPTURE(alpha);
    KernelNode node;
    node.tensor<OperandType::TENSOR_FLOAT32>({2, 3}, in);
    node.scalar<OperandType::FLOAT32>(alpha);
    node.output(OperandType::TENSOR_FLOAT32);
    REQUIRE(node.run(kernels_of<OperationType::ELU>()));
    const auto got = node.values<OperandType::TENSOR_FLOAT32>(0);
    for (std::size_t i = 0; i < in.size(); ++i) {
      const double x = in[i];
      CHECK(got[i] == doctest::Approx(x > 0 ? x : alpha * (std::exp(x) - 1.0)).epsilon(1e-6));
    }
    std::vector<Half> h;
    for (float x : in) h.push_back(Half(x));
    KernelNode half;
    half.tensor<OperandType::TENSOR_FLOAT16>({6}, h);
    half.scalar<OperandType::FLOAT16>(Half(alpha));
    half.output(OperandType::TENSOR_FLOAT16);
    REQUIRE(half.run(kernels_of<OperationType::ELU>()));
    const auto hgot = half.values<OperandType::TENSOR_FLOAT16>(0);
    for (std::size_t i = 0; i < in.size(); ++i) {
      const double x = in[i];
      const double want = x > 0 ? x : alpha * (std::exp(x) - 1.0);
      CHECK(std::abs(static_cast<float>(hgot[i]) - want) <= std::abs(want) * 0x1p-11 + 0x1p-24);
    }
  }
}

TEST_CASE("HARD_SWISH on float data") {
  check_float_unary<OperationType::HARD_SWISH>({-5.0f, -3.0f, -1.5f, 0.0f, 1.0f, 2.75f, 3.0f, 8.0f}, hard_swish);
}

TEST_CASE_TEMPLATE("quantized HARD_SWISH is within one step of the real function", E, std::uint8_t, std::int8_t) {
  constexpr bool is_signed = std::is_signed_v<E>;
  const std::int32_t off = is_signed ? -128 : 0;
  // Input covering about [-10, 10], output with its own scale and zero point.
  check_quant_unary<OperationType::HARD_SWISH, E>(0.078125f, 128 + off, 0.03125f, 0 + off, hard_swish);
  check_quant_unary<OperationType::HARD_SWISH, E>(0.078125f, 128 + off, 0.078125f, 128 + off, hard_swish);
  check_quant_unary<OperationType::HARD_SWISH, E>(0.02f, 100 + off, 0.05f, 20 + off, hard_swish);
}

TEST_CASE("quantized HARD_SWISH refuses an output scale at or below input scale / 128") {
  KernelNode node;
  node.tensor<OperandType::TENSOR_QUANT8_ASYMM>({1}, {3}, 1.0f, 0);
  node.output(OperandType::TENSOR_QUANT8_ASYMM, 1.0f / 256, 0);
  const auto s = node.run(kernels_of<OperationType::HARD_SWISH>());
  REQUIRE_FALSE(s);
  CHECK(std::string(s.error().c_str()).find("HARD_SWISH") != std::string::npos);
}

TEST_CASE("PRELU broadcasts alpha over float data") {
  KernelNode node;
  node.tensor<OperandType::TENSOR_FLOAT32>({2, 3}, {-1.0f, 2.0f, -3.0f, 0.0f, -0.5f, 4.0f});
  node.tensor<OperandType::TENSOR_FLOAT32>({3}, {0.5f, 0.25f, 2.0f});
  node.output(OperandType::TENSOR_FLOAT32);
  REQUIRE(node.run(kernels_of<OperationType::PRELU>()));
  CHECK(node.out(0).dims == Dims{2, 3});
  CHECK(node.values<OperandType::TENSOR_FLOAT32>(0) == std::vector<float>{-0.5f, 2.0f, -6.0f, 0.0f, -0.125f, 4.0f});

  KernelNode half;
  half.tensor<OperandType::TENSOR_FLOAT16>({1, 2}, {Half(-3.0f), Half(1.5f)});
  half.tensor<OperandType::TENSOR_FLOAT16>({2, 1}, {Half(0.5f), Half(-1.0f)});
  half.output(OperandType::TENSOR_FLOAT16);
  REQUIRE(half.run(kernels_of<OperationType::PRELU>()));
  CHECK(half.out(0).dims == Dims{2, 2});
  const auto h = half.values<OperandType::TENSOR_FLOAT16>(0);
  CHECK(static_cast<float>(h[0]) == -1.5f);
  CHECK(static_cast<float>(h[1]) == 1.5f);
  CHECK(static_cast<float>(h[2]) == 3.0f);
  CHECK(static_cast<float>(h[3]) == 1.5f);
}

TEST_CASE_TEMPLATE("quantized PRELU is within one step of the real function", E, std::uint8_t, std::int8_t) {
  constexpr bool is_signed = std::is_signed_v<E>;
  constexpr OperandType T = quant_type<E>();
  const std::int32_t off = is_signed ? -128 : 0;
  const std::vector<E> in = all_values<E>();
  const auto n = static_cast<std::uint32_t>(in.size());
  const std::vector<E> alpha{static_cast<E>(50 + off), static_cast<E>(150 + off)};  // alpha -0.5 and 0.28125 (scale 1/128, zeroPoint 114)
  for (float oscale : {0.1f, 0.125f, 0.5f}) {
    CAPTURE(oscale);
    KernelNode node;
    node.tensor<T>({n / 2, 2}, in, 0.25f, 128 + off);
    node.tensor<T>({2}, alpha, 1.0f / 128, 114 + off);
    node.output(T, oscale, 120 + off);
    REQUIRE(node.run(kernels_of<OperationType::PRELU>()));
    const auto got = node.values<T>(0);
    const double lo = std::numeric_limits<E>::min(), hi = std::numeric_limits<E>::max();
    for (std::size_t i = 0; i < n; ++i) {
      const double x = (in[i] - (128 + off)) * 0.25;
      const double a = (alpha[i % 2] - (114 + off)) / 128.0;
      const double want = std::min(hi, std::max(lo, std::round((x >= 0 ? x : a * x) / oscale) + 120 + off));
      CAPTURE(i);
      CHECK(std::abs(got[i] - want) <= 1.0);
    }
  }
}
