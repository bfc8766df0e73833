// Elementwise math kernels: ABS, EXP, LOG, NEG, RSQRT, SIN, SQRT, FLOOR (unary, float types and
// INT32 where the row has it), POW, MAXIMUM, MINIMUM (broadcast binary) and SELECT. Expected
// values come from the definitions evaluated in double precision in this file, or by hand.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "ops/kernel_test_util.hpp"
#include "nnhal/kernels/abs.hpp"
#include "nnhal/kernels/exp.hpp"
#include "nnhal/kernels/floor.hpp"
#include "nnhal/kernels/log.hpp"
#include "nnhal/kernels/maximum.hpp"
#include "nnhal/kernels/minimum.hpp"
#include "nnhal/kernels/neg.hpp"
#include "nnhal/kernels/pow.hpp"
#include "nnhal/kernels/rsqrt.hpp"
#include "nnhal/kernels/select.hpp"
#include "nnhal/kernels/sin.hpp"
#include "nnhal/kernels/sqrt.hpp"

using nnhal::Dims;
using nnhal::Half;
using nnhal::OperandType;
using nnhal::OperationType;
using nnhal::test::KernelNode;
using nnhal::test::kernels_of;

namespace {

constexpr std::int32_t kMinI32 = std::numeric_limits<std::int32_t>::min();
constexpr std::int32_t kMaxI32 = std::numeric_limits<std::int32_t>::max();

std::vector<Half> halves(const std::vector<float>& v) {
  std::vector<Half> out;
  for (float f : v) out.push_back(Half(f));
  return out;
}

/// Runs unary Op on float32 `in` and checks every element against `f` (in double) to a relative
/// 1e-6; the same on float16 (inputs rounded to half first) against the once-rounded result.
template <OperationType Op>
void check_float_unary(const std::vector<float>& in, double (*f)(double)) {
  CAPTURE(static_cast<int>(Op));
  const auto n = static_cast<std::uint32_t>(in.size());
  {
    KernelNode node;
    node.tensor<OperandType::TENSOR_FLOAT32>({n}, in);
    node.output(OperandType::TENSOR_FLOAT32);
    REQUIRE(node.run(kernels_of<Op>()));
    CHECK(node.out(0).dims == Dims{n});
    const auto got = node.values<OperandType::TENSOR_FLOAT32>(0);
    for (std::size_t i = 0; i < n; ++i) {
      const double want = f(in[i]);
      CAPTURE(in[i]);
      if (std::isnan(want))
        CHECK(std::isnan(got[i]));
      else
        CHECK(static_cast<double>(got[i]) == doctest::Approx(want).epsilon(1e-6));
    }
  }
  {
    const std::vector<Half> h = halves(in);
    KernelNode node;
    node.tensor<OperandType::TENSOR_FLOAT16>({1, n}, h);
    node.output(OperandType::TENSOR_FLOAT16);
    REQUIRE(node.run(kernels_of<Op>()));
    CHECK(node.out(0).dims == Dims{1, n});
    const auto got = node.values<OperandType::TENSOR_FLOAT16>(0);
    for (std::size_t i = 0; i < n; ++i) {
      const double want = f(static_cast<float>(h[i]));
      if (!std::isfinite(want)) continue;
      CAPTURE(in[i]);
      // One rounding to half of the exact value: within half a half-ulp (2^-11 relative).
      CHECK(std::abs(static_cast<float>(got[i]) - want) <= std::abs(want) * 0x1p-11 + 0x1p-24);
    }
  }
}

}  // namespace

TEST_CASE("unary math on float32 and float16 matches the definitions") {
  check_float_unary<OperationType::ABS>({-2.5f, -0.0f, 0.0f, 3.25f, -1e-3f}, [](double x) { return std::fabs(x); });
  check_float_unary<OperationType::EXP>({-3.0f, -0.5f, 0.0f, 0.75f, 2.0f}, [](double x) { return std::exp(x); });
  check_float_unary<OperationType::LOG>({0.125f, 0.5f, 1.0f, 2.5f, 100.0f}, [](double x) { return std::log(x); });
  check_float_unary<OperationType::NEG>({-2.5f, 0.0f, 1.0f, 7.125f}, [](double x) { return -x; });
  check_float_unary<OperationType::RSQRT>({0.25f, 1.0f, 2.0f, 16.0f, 3.5f}, [](double x) { return 1.0 / std::sqrt(x); });
  check_float_unary<OperationType::SIN>({-3.0f, -0.5f, 0.0f, 1.0f, 2.5f}, [](double x) { return std::sin(x); });
  check_float_unary<OperationType::SQRT>({0.0f, 0.25f, 2.0f, 9.0f, 1e4f}, [](double x) { return std::sqrt(x); });
  check_float_unary<OperationType::FLOOR>({-2.5f, -1.0f, -0.25f, 0.0f, 0.75f, 3.0f, 7.5f},
                                          [](double x) { return std::floor(x); });
}

TEST_CASE("ABS and NEG on TENSOR_INT32 wrap INT32_MIN instead of overflowing") {
  const std::vector<std::int32_t> in{-7, 0, 5, kMinI32, kMaxI32};
  KernelNode abs, neg;
  abs.tensor<OperandType::TENSOR_INT32>({5}, in);
  abs.output(OperandType::TENSOR_INT32);
  neg.tensor<OperandType::TENSOR_INT32>({5}, in);
  neg.output(OperandType::TENSOR_INT32);
  REQUIRE(abs.run(kernels_of<OperationType::ABS>()));
  REQUIRE(neg.run(kernels_of<OperationType::NEG>()));
  CHECK(abs.values<OperandType::TENSOR_INT32>(0) == std::vector<std::int32_t>{7, 0, 5, kMinI32, kMaxI32});
  CHECK(neg.values<OperandType::TENSOR_INT32>(0) == std::vector<std::int32_t>{7, 0, -5, kMinI32, -kMaxI32});
}

TEST_CASE("FLOOR refuses an input of rank 5 at shape inference") {
  KernelNode node;
  node.tensor<OperandType::TENSOR_FLOAT32>({1, 1, 1, 1, 2}, {1.5f, 2.5f});
  node.output(OperandType::TENSOR_FLOAT32);
  const auto s = node.infer(kernels_of<OperationType::FLOOR>());
  REQUIRE_FALSE(s);
  CHECK(s.error().status() == nnhal::ErrorStatus::INVALID_ARGUMENT);
  CHECK(std::string(s.error().c_str()).find("FLOOR") != std::string::npos);
}

TEST_CASE("POW broadcasts the exponent and computes in float for float16") {
  KernelNode node;
  node.tensor<OperandType::TENSOR_FLOAT32>({2, 3}, {1.0f, 2.0f, 3.0f, 4.0f, 0.5f, 9.0f});
  node.tensor<OperandType::TENSOR_FLOAT32>({3}, {2.0f, -1.0f, 0.5f});
  node.output(OperandType::TENSOR_FLOAT32);
  REQUIRE(node.run(kernels_of<OperationType::POW>()));
  CHECK(node.out(0).dims == Dims{2, 3});
  const auto got = node.values<OperandType::TENSOR_FLOAT32>(0);
  const std::vector<double> want{1.0, 0.5, std::sqrt(3.0), 16.0, 2.0, 3.0};
  for (std::size_t i = 0; i < 6; ++i) CHECK(static_cast<double>(got[i]) == doctest::Approx(want[i]).epsilon(1e-6));

  KernelNode half;
  half.tensor<OperandType::TENSOR_FLOAT16>({1}, halves({2.0f}));
  half.tensor<OperandType::TENSOR_FLOAT16>({2, 2}, halves({0.5f, 3.0f, -2.0f, 10.0f}));
  half.output(OperandType::TENSOR_FLOAT16);
  REQUIRE(half.run(kernels_of<OperationType::POW>()));
  CHECK(half.out(0).dims == Dims{2, 2});
  const auto h = half.values<OperandType::TENSOR_FLOAT16>(0);
  CHECK(h[0].bits == Half(static_cast<float>(std::sqrt(2.0))).bits);
  CHECK(static_cast<float>(h[1]) == 8.0f);
  CHECK(static_cast<float>(h[2]) == 0.25f);
  CHECK(static_cast<float>(h[3]) == 1024.0f);
}

TEST_CASE("MAXIMUM and MINIMUM broadcast float32, float16 and int32 operands") {
  KernelNode mx;
  mx.tensor<OperandType::TENSOR_FLOAT32>({2, 2}, {1.0f, -5.0f, 3.0f, 0.0f});
  mx.tensor<OperandType::TENSOR_FLOAT32>({2, 1}, {2.0f, -1.0f});
  mx.output(OperandType::TENSOR_FLOAT32);
  REQUIRE(mx.run(kernels_of<OperationType::MAXIMUM>()));
  CHECK(mx.values<OperandType::TENSOR_FLOAT32>(0) == std::vector<float>{2.0f, 2.0f, 3.0f, 0.0f});

  KernelNode mn;
  mn.tensor<OperandType::TENSOR_INT32>({3}, {4, -9, kMaxI32});
  mn.tensor<OperandType::TENSOR_INT32>({1}, {0});
  mn.output(OperandType::TENSOR_INT32);
  REQUIRE(mn.run(kernels_of<OperationType::MINIMUM>()));
  CHECK(mn.values<OperandType::TENSOR_INT32>(0) == std::vector<std::int32_t>{0, -9, 0});

  KernelNode h;
  h.tensor<OperandType::TENSOR_FLOAT16>({3}, halves({1.5f, -2.0f, 0.25f}));
  h.tensor<OperandType::TENSOR_FLOAT16>({3}, halves({1.0f, -3.0f, 0.5f}));
  h.output(OperandType::TENSOR_FLOAT16);
  REQUIRE(h.run(kernels_of<OperationType::MINIMUM>()));
  const auto got = h.values<OperandType::TENSOR_FLOAT16>(0);
  CHECK(static_cast<float>(got[0]) == 1.0f);
  CHECK(static_cast<float>(got[1]) == -3.0f);
  CHECK(static_cast<float>(got[2]) == 0.25f);

  KernelNode bad;
  bad.tensor<OperandType::TENSOR_FLOAT32>({2}, {1.0f, 2.0f});
  bad.tensor<OperandType::TENSOR_FLOAT32>({3}, {1.0f, 2.0f, 3.0f});
  bad.output(OperandType::TENSOR_FLOAT32);
  CHECK_FALSE(bad.infer(kernels_of<OperationType::MAXIMUM>()));
}

TEST_CASE_TEMPLATE("quantized MAXIMUM / MINIMUM requantize both inputs to the output first", E, std::uint8_t,
                   std::int8_t) {
  constexpr bool is_signed = std::is_signed_v<E>;
  constexpr OperandType T = is_signed ? OperandType::TENSOR_QUANT8_ASYMM_SIGNED : OperandType::TENSOR_QUANT8_ASYMM;
  const std::int32_t off = is_signed ? -128 : 0;
  // a: scale 0.5, zp 10; b: scale 1.0, zp 20; output: scale 0.25, zp 100 (all shifted for signed).
  const std::vector<E> a{static_cast<E>(10 + off), static_cast<E>(30 + off), static_cast<E>(0 + off),
                         static_cast<E>(255 + off)};
  const std::vector<E> b{static_cast<E>(21 + off), static_cast<E>(25 + off), static_cast<E>(20 + off),
                         static_cast<E>(0 + off)};
  auto run = [&](auto op_tag) {
    KernelNode node;
    node.tensor<T>({4}, a, 0.5f, 10 + off);
    node.tensor<T>({4}, b, 1.0f, 20 + off);
    node.output(T, 0.25f, 100 + off);
    REQUIRE(node.run(kernels_of<decltype(op_tag)::value>()));
    return node.values<T>(0);
  };
  const double lo = is_signed ? -128 : 0, hi = is_signed ? 127 : 255;
  auto expected = [&](bool take_min) {
    std::vector<E> out;
    for (std::size_t i = 0; i < 4; ++i) {
      const double ra = (a[i] - (10 + off)) * 0.5, rb = (b[i] - (20 + off)) * 1.0;
      auto q = [&](double r) { return std::min(hi, std::max(lo, std::round(r / 0.25 + 100 + off))); };
      const double qa = q(ra), qb = q(rb);
      out.push_back(static_cast<E>(take_min ? std::min(qa, qb) : std::max(qa, qb)));
    }
    return out;
  };
  CHECK(run(std::integral_constant<OperationType, OperationType::MAXIMUM>{}) == expected(false));
  CHECK(run(std::integral_constant<OperationType, OperationType::MINIMUM>{}) == expected(true));
}

TEST_CASE("SELECT picks per element, requantizes quantized inputs, and needs one shape") {
  const std::vector<std::uint8_t> cond{1, 0, 0, 1};
  KernelNode f;
  f.tensor<OperandType::TENSOR_BOOL8>({2, 2}, cond);
  f.tensor<OperandType::TENSOR_FLOAT32>({2, 2}, {1.0f, 2.0f, 3.0f, 4.0f});
  f.tensor<OperandType::TENSOR_FLOAT32>({2, 2}, {-1.0f, -2.0f, -3.0f, -4.0f});
  f.output(OperandType::TENSOR_FLOAT32);
  REQUIRE(f.run(kernels_of<OperationType::SELECT>()));
  CHECK(f.out(0).dims == Dims{2, 2});
  CHECK(f.values<OperandType::TENSOR_FLOAT32>(0) == std::vector<float>{1.0f, -2.0f, -3.0f, 4.0f});

  KernelNode q;
  q.tensor<OperandType::TENSOR_BOOL8>({4}, cond);
  q.tensor<OperandType::TENSOR_QUANT8_ASYMM>({4}, {130, 140, 150, 0}, 1.0f, 128);  // 2, 12, 22, -128
  q.tensor<OperandType::TENSOR_QUANT8_ASYMM>({4}, {0, 10, 255, 5}, 0.5f, 0);       // 0, 5, 127.5, 2.5
  q.output(OperandType::TENSOR_QUANT8_ASYMM, 2.0f, 100);
  REQUIRE(q.run(kernels_of<OperationType::SELECT>()));
  // 2 / 2 + 100 = 101; 5 / 2 + 100 = 102.5 -> 103 (ties away); 127.5 / 2 + 100 = 163.75 -> 164;
  // -128 / 2 + 100 = 36.
  CHECK(q.values<OperandType::TENSOR_QUANT8_ASYMM>(0) == std::vector<std::uint8_t>{101, 103, 164, 36});

  KernelNode bad;
  bad.tensor<OperandType::TENSOR_BOOL8>({4}, cond);
  bad.tensor<OperandType::TENSOR_INT32>({2, 2}, {1, 2, 3, 4});
  bad.tensor<OperandType::TENSOR_INT32>({2, 2}, {1, 2, 3, 4});
  bad.output(OperandType::TENSOR_INT32);
  const auto s = bad.infer(kernels_of<OperationType::SELECT>());
  REQUIRE_FALSE(s);
  CHECK(s.error().status() == nnhal::ErrorStatus::INVALID_ARGUMENT);
  CHECK(std::string(s.error().c_str()).find("SELECT") != std::string::npos);
}
