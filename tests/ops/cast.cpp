// CAST kernels: every conversion among FLOAT16, FLOAT32, INT32 and QUANT8_ASYMM with the
// reference's clamping and truncation (and no undefined float-to-int conversions), and the
// identity casts of 1.3 as byte copies.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "nnhal/ops/cast.hpp"
#include "ops/kernel_test_util.hpp"
#include "nnhal/kernels/cast.hpp"

using nnhal::Dims;
using nnhal::Half;
using nnhal::OperandType;
using nnhal::element_t;
using nnhal::test::KernelNode;
namespace cast = nnhal::kernels::cast;

namespace {

template <OperandType T>
struct CastTag {
  static constexpr OperandType type = T;
};

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInfF = std::numeric_limits<float>::infinity();
constexpr std::int32_t kMax = std::numeric_limits<std::int32_t>::max();
constexpr std::int32_t kMin = std::numeric_limits<std::int32_t>::min();

/// Casts `v` (shape [n]) from In to Out through the kernel.
template <OperandType In, OperandType Out>
std::vector<element_t<Out>> cast_values(const std::vector<element_t<In>>& v, float scale = 0.0f,
                                        std::int32_t zero_point = 0) {
  KernelNode node;
  node.tensor<In>({static_cast<std::uint32_t>(v.size())}, v, scale, zero_point);
  node.output(Out, scale, zero_point);
  const auto s = node.run(nnhal::test::kernels_of<nnhal::OperationType::CAST>());
  REQUIRE(s);
  return node.values<Out>(0);
}

std::vector<Half> halves(std::initializer_list<float> v) {
  std::vector<Half> out;
  for (float f : v) out.push_back(Half(f));
  return out;
}
std::vector<float> as_floats(const std::vector<Half>& v) {
  std::vector<float> out;
  for (Half h : v) out.push_back(static_cast<float>(h));
  return out;
}

}  // namespace

TEST_CASE("CAST float32 to quant8 clamps to [0, 255] and truncates; NaN gives 0") {
  const auto got = cast_values<OperandType::TENSOR_FLOAT32, OperandType::TENSOR_QUANT8_ASYMM>(
      {-1.5f, -0.0f, 0.7f, 1.0f, 254.9f, 255.0f, 255.5f, 300.0f, kNaN, kInfF, -kInfF});
  CHECK(got == std::vector<std::uint8_t>{0, 0, 0, 1, 254, 255, 255, 255, 0, 255, 0});
}

TEST_CASE("CAST float32 to int32 truncates toward zero, clamps out-of-range values, NaN gives 0") {
  const auto got = cast_values<OperandType::TENSOR_FLOAT32, OperandType::TENSOR_INT32>(
      {1.9f, -1.9f, 2147483520.0f, 2147483648.0f, 3e9f, -2147483648.0f, -3e9f, kNaN, kInfF, -kInfF});
  CHECK(got == std::vector<std::int32_t>{1, -1, 2147483520, kMax, kMax, kMin, kMin, 0, kMax, kMin});
}

TEST_CASE("CAST float32 to float16 rounds to nearest even") {
  const auto got = cast_values<OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16>(
      {1.0009765625f, 1.00048828125f, 1.00146484375f, 65504.0f, 65519.0f, 65520.0f, 1e-8f, -2.5f});
  // 1 + 2^-11 ties down to 1, 1 + 3 * 2^-11 ties up to 1 + 2^-9; 65520 overflows to infinity.
  CHECK(as_floats(got) == std::vector<float>{1.0009765625f, 1.0f, 1.001953125f, 65504.0f, 65504.0f,
                                             kInfF, 0.0f, -2.5f});
}

TEST_CASE("CAST float16 to int32 and quant8") {
  const auto h = halves({-2.5f, -0.5f, 0.0f, 7.75f, 254.875f, 255.5f, 65504.0f, kInfF, -kInfF, kNaN});
  CHECK(cast_values<OperandType::TENSOR_FLOAT16, OperandType::TENSOR_INT32>(h) ==
        std::vector<std::int32_t>{-2, 0, 0, 7, 254, 255, 65504, kMax, kMin, 0});
  CHECK(cast_values<OperandType::TENSOR_FLOAT16, OperandType::TENSOR_QUANT8_ASYMM>(h) ==
        std::vector<std::uint8_t>{0, 0, 0, 7, 254, 255, 255, 255, 0, 0});
  CHECK(cast_values<OperandType::TENSOR_FLOAT16, OperandType::TENSOR_FLOAT32>(halves({-2.5f, 65504.0f, 0.099975586f})) ==
        std::vector<float>{-2.5f, 65504.0f, 0.099975586f});
}

TEST_CASE("CAST int32 to quant8, float16 and float32") {
  CHECK(cast_values<OperandType::TENSOR_INT32, OperandType::TENSOR_QUANT8_ASYMM>(
            {-5, 0, 128, 255, 256, kMax, kMin}) == std::vector<std::uint8_t>{0, 0, 128, 255, 255, 255, 0});
  // Halves in [2048, 4096) are 2 apart: 2049 and 2051 are ties (to even); 65520 overflows.
  CHECK(as_floats(cast_values<OperandType::TENSOR_INT32, OperandType::TENSOR_FLOAT16>(
            {2049, 2051, -3, 65504, 65519, 65520, 100000, -100000, kMin})) ==
        std::vector<float>{2048.0f, 2052.0f, -3.0f, 65504.0f, 65504.0f, kInfF, kInfF, -kInfF, -kInfF});
  CHECK(cast_values<OperandType::TENSOR_INT32, OperandType::TENSOR_FLOAT32>({16777217, -7, kMin}) ==
        std::vector<float>{16777216.0f, -7.0f, -2147483648.0f});
}

TEST_CASE("CAST from quant8 reads the raw values and ignores the quantization parameters") {
  const std::vector<std::uint8_t> q = {0, 1, 128, 255};
  CHECK(cast_values<OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_FLOAT32>(q, 0.5f, 100) ==
        std::vector<float>{0, 1, 128, 255});
  CHECK(as_floats(cast_values<OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_FLOAT16>(q, 0.5f, 100)) ==
        std::vector<float>{0, 1, 128, 255});
  CHECK(cast_values<OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_INT32>(q, 0.5f, 100) ==
        std::vector<std::int32_t>{0, 1, 128, 255});
  CHECK(cast_values<OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_ASYMM>(q, 0.5f, 100) == q);
  CHECK(cast_values<OperandType::TENSOR_FLOAT32, OperandType::TENSOR_QUANT8_ASYMM>({3.0f}, 0.5f, 100) ==
        std::vector<std::uint8_t>{3});
}

TEST_CASE("CAST identity casts of the 1.2 types keep the values") {
  CHECK(cast_values<OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT32>({-1.25f, 3e38f}) ==
        std::vector<float>{-1.25f, 3e38f});
  CHECK(cast_values<OperandType::TENSOR_INT32, OperandType::TENSOR_INT32>({kMin, kMax}) ==
        std::vector<std::int32_t>{kMin, kMax});
  CHECK(as_floats(cast_values<OperandType::TENSOR_FLOAT16, OperandType::TENSOR_FLOAT16>(halves({-1.5f, 65504.0f}))) ==
        std::vector<float>{-1.5f, 65504.0f});
}

TEST_CASE_TEMPLATE("CAST identity casts of the 1.3 types copy the bytes", Tag,
                   CastTag<OperandType::TENSOR_BOOL8>, CastTag<OperandType::TENSOR_QUANT16_ASYMM>,
                   CastTag<OperandType::TENSOR_QUANT16_SYMM>, CastTag<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>,
                   CastTag<OperandType::TENSOR_QUANT8_SYMM>) {
  constexpr OperandType T = Tag::type;
  using E = element_t<T>;
  const std::vector<E> v = {static_cast<E>(0), static_cast<E>(1), static_cast<E>(2),
                            std::numeric_limits<E>::max(), std::numeric_limits<E>::min()};
  KernelNode node;
  node.tensor<T>({1, 5}, v, 0.25f, 0);
  node.output(T, 0.25f, 0);
  REQUIRE(node.run(nnhal::test::kernels_of<nnhal::OperationType::CAST>()));
  CHECK(node.out(0).dims == Dims{1, 5});
  CHECK(node.values<T>(0) == v);
}

TEST_CASE("CAST output shape is the input shape") {
  KernelNode node;
  node.tensor<OperandType::TENSOR_INT32>({2, 1, 3}, {1, 2, 3, 4, 5, 6});
  node.output(OperandType::TENSOR_FLOAT32);
  REQUIRE(node.run(nnhal::test::kernels_of<nnhal::OperationType::CAST>()));
  CHECK(node.out(0).dims == Dims{2, 1, 3});
  CHECK(node.out(0).rank_known);
  CHECK(node.values<OperandType::TENSOR_FLOAT32>(0) == std::vector<float>{1, 2, 3, 4, 5, 6});
}

TEST_CASE("CAST select rejects a pair outside the table") {
  KernelNode node;
  node.tensor<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>({1}, {1});
  node.output(OperandType::TENSOR_FLOAT32);
  REQUIRE(node.infer(nnhal::test::kernels_of<nnhal::OperationType::CAST>()));
  CHECK_FALSE(node.select(nnhal::test::kernels_of<nnhal::OperationType::CAST>()));
}
