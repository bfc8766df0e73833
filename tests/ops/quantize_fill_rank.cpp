// QUANTIZE, DEQUANTIZE (per-tensor and per-channel), FILL and RANK kernels, and whole models
// whose shapes are known only at execution (a SOFTMAX of unknown input shape, a FILL whose
// dims are a request input, RANK's scalar output).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "nnhal/builder/builder.hpp"
#include "../support/run_model.hpp"
#include "ops/kernel_test_util.hpp"
#include "nnhal/kernels/dequantize.hpp"
#include "nnhal/kernels/fill.hpp"
#include "nnhal/kernels/quantize.hpp"
#include "nnhal/kernels/rank.hpp"
#include "nnhal/kernels/softmax.hpp"

using nnhal::Dims;
using nnhal::Half;
using nnhal::OperandType;
using nnhal::OperationType;
using nnhal::test::KernelNode;
using nnhal::test::kernels_of;
namespace t = nnhal::test;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

template <OperandType In, OperandType Out>
std::vector<nnhal::element_t<Out>> quantize(const std::vector<nnhal::element_t<In>>& v, float scale,
                                            std::int32_t zero_point) {
  KernelNode node;
  node.tensor<In>({static_cast<std::uint32_t>(v.size())}, v);
  node.output(Out, scale, zero_point);
  REQUIRE(node.run(kernels_of<OperationType::QUANTIZE>()));
  return node.values<Out>(0);
}

}  // namespace

TEST_CASE("QUANTIZE rounds half away from zero, adds the zero point and clamps; NaN clamps high") {
  const std::vector<float> x{-1.0f, 0.0f, 0.25f, 0.75f, 1.25f, -0.25f, 100.0f, -100.0f, kNaN};
  CHECK(quantize<OperandType::TENSOR_FLOAT32, OperandType::TENSOR_QUANT8_ASYMM>(x, 0.5f, 10) ==
        std::vector<std::uint8_t>{8, 10, 11, 12, 13, 9, 210, 0, 255});
  CHECK(quantize<OperandType::TENSOR_FLOAT32, OperandType::TENSOR_QUANT8_ASYMM_SIGNED>(x, 0.5f, -10) ==
        std::vector<std::int8_t>{-12, -10, -9, -8, -7, -11, 127, -128, 127});
  std::vector<Half> h;
  for (float f : x) h.push_back(Half(f));
  CHECK(quantize<OperandType::TENSOR_FLOAT16, OperandType::TENSOR_QUANT8_ASYMM>(h, 0.5f, 10) ==
        std::vector<std::uint8_t>{8, 10, 11, 12, 13, 9, 210, 0, 255});
}

TEST_CASE("DEQUANTIZE from every quantized type to float32 and float16") {
  KernelNode a;
  a.tensor<OperandType::TENSOR_QUANT8_ASYMM>({4}, {0, 100, 128, 255}, 0.5f, 128);
  a.output(OperandType::TENSOR_FLOAT32);
  REQUIRE(a.run(kernels_of<OperationType::DEQUANTIZE>()));
  CHECK(a.values<OperandType::TENSOR_FLOAT32>(0) == std::vector<float>{-64.0f, -14.0f, 0.0f, 63.5f});

  KernelNode s;
  s.tensor<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>({2, 2}, {-128, -1, 0, 127}, 0.25f, -1);
  s.output(OperandType::TENSOR_FLOAT16);
  REQUIRE(s.run(kernels_of<OperationType::DEQUANTIZE>()));
  CHECK(s.out(0).dims == Dims{2, 2});
  const auto h = s.values<OperandType::TENSOR_FLOAT16>(0);
  CHECK(static_cast<float>(h[0]) == -31.75f);
  CHECK(static_cast<float>(h[1]) == 0.0f);
  CHECK(static_cast<float>(h[2]) == 0.25f);
  CHECK(static_cast<float>(h[3]) == 32.0f);

  KernelNode symm;
  symm.tensor<OperandType::TENSOR_QUANT8_SYMM>({3}, {-127, 0, 5}, 2.0f, 0);
  symm.output(OperandType::TENSOR_FLOAT32);
  REQUIRE(symm.run(kernels_of<OperationType::DEQUANTIZE>()));
  CHECK(symm.values<OperandType::TENSOR_FLOAT32>(0) == std::vector<float>{-254.0f, 0.0f, 10.0f});
}

TEST_CASE("DEQUANTIZE per-channel uses the scale of each element's channel") {
  const nnhal::SymmPerChannelQuantParams channels{{0.5f, 2.0f, 0.25f}, 1};
  KernelNode node;
  node.tensor<OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL>({2, 3, 2}, {1, -1, 2, -2, 4, -4, 10, 20, 30, 40, 50, 60});
  node.in(0).channel_quant = &channels;
  node.output(OperandType::TENSOR_FLOAT32);
  REQUIRE(node.run(kernels_of<OperationType::DEQUANTIZE>()));
  CHECK(node.values<OperandType::TENSOR_FLOAT32>(0) ==
        std::vector<float>{0.5f, -0.5f, 4.0f, -4.0f, 1.0f, -1.0f, 5.0f, 10.0f, 60.0f, 80.0f, 12.5f, 15.0f});

  const nnhal::SymmPerChannelQuantParams wrong{{0.5f, 2.0f}, 1};  // 2 scales for 3 channels
  KernelNode bad;
  bad.tensor<OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL>({1, 3}, {1, 2, 3});
  bad.in(0).channel_quant = &wrong;
  bad.output(OperandType::TENSOR_FLOAT32);
  CHECK_FALSE(bad.run(kernels_of<OperationType::DEQUANTIZE>()));
}

TEST_CASE("FILL builds the shape from its dims tensor and fills every element") {
  KernelNode f;
  f.tensor<OperandType::TENSOR_INT32>({3}, {2, 1, 3});
  f.scalar<OperandType::FLOAT32>(1.5f);
  f.output(OperandType::TENSOR_FLOAT32);
  REQUIRE(f.run(kernels_of<OperationType::FILL>()));
  CHECK(f.out(0).dims == Dims{2, 1, 3});
  CHECK(f.values<OperandType::TENSOR_FLOAT32>(0) == std::vector<float>(6, 1.5f));

  KernelNode i;
  i.tensor<OperandType::TENSOR_INT32>({1}, {4});
  i.scalar<OperandType::INT32>(-7);
  i.output(OperandType::TENSOR_INT32);
  REQUIRE(i.run(kernels_of<OperationType::FILL>()));
  CHECK(i.values<OperandType::TENSOR_INT32>(0) == std::vector<std::int32_t>(4, -7));

  KernelNode h;
  h.tensor<OperandType::TENSOR_INT32>({2}, {1, 2});
  h.scalar<OperandType::FLOAT16>(Half(-0.5f));
  h.output(OperandType::TENSOR_FLOAT16);
  REQUIRE(h.run(kernels_of<OperationType::FILL>()));
  for (Half v : h.values<OperandType::TENSOR_FLOAT16>(0)) CHECK(v.bits == Half(-0.5f).bits);

  KernelNode negative;
  negative.tensor<OperandType::TENSOR_INT32>({2}, {2, -1});
  negative.scalar<OperandType::INT32>(0);
  negative.output(OperandType::TENSOR_INT32);
  const auto s = negative.infer(kernels_of<OperationType::FILL>());
  REQUIRE_FALSE(s);
  CHECK(s.error().status() == nnhal::ErrorStatus::INVALID_ARGUMENT);
  CHECK(std::string(s.error().c_str()).find("FILL input 0 (dims) entry 1 is negative") != std::string::npos);

  KernelNode matrix;
  matrix.tensor<OperandType::TENSOR_INT32>({1, 1}, {2});
  matrix.scalar<OperandType::INT32>(0);
  matrix.output(OperandType::TENSOR_INT32);
  CHECK_FALSE(matrix.infer(kernels_of<OperationType::FILL>()));
}

TEST_CASE("FILL declares that its shape depends on the value of input 0") {
  CHECK(nnhal::operation_info<OperationType::FILL>().value_inputs == std::uint64_t{1});
}

TEST_CASE("RANK writes the input's rank as an INT32 scalar for any tensor type") {
  KernelNode node;
  node.tensor<OperandType::TENSOR_BOOL8>({2, 1, 3}, {1, 0, 1, 0, 1, 0});
  node.output(OperandType::INT32);
  REQUIRE(node.run(kernels_of<OperationType::RANK>()));
  CHECK(node.out(0).dims.rank() == 0);
  std::int32_t r = 0;
  std::memcpy(&r, node.out(0).data, sizeof r);
  CHECK(r == 3);
}

TEST_CASE("whole models with shapes known only at execution") {
  SUBCASE("SOFTMAX of an input declared [0, 0], given [2, 3] by the request") {
    nnhal::ModelBuilder b;
    const auto in = b.input<OperandType::TENSOR_FLOAT32>({{0, 0}});
    const auto beta = b.scalar<OperandType::FLOAT32>(1.0f);
    b.output(b.operation<OperationType::SOFTMAX, OperandType::TENSOR_FLOAT32>({{0, 0}}, in, beta));
    const std::vector<float> x{0.0f, 1.0f, 2.0f, 5.0f, 5.0f, 5.0f};
    const auto r = t::run_model(std::move(b).model(), {t::arg_of(x, {2, 3})}, {t::output_of(6 * sizeof(float))});
    REQUIRE_MESSAGE(r.status.has_value(), std::string(r.status ? "" : r.status.error().c_str()));
    REQUIRE(r.shapes.size() == 1);
    CHECK(r.shapes[0].dimensions == std::vector<std::uint32_t>{2, 3});
    const auto out = r.output<float>(0);
    const double s = 1.0 + std::exp(1.0) + std::exp(2.0);
    CHECK(out[0] == doctest::Approx(1.0 / s).epsilon(1e-6));
    CHECK(out[2] == doctest::Approx(std::exp(2.0) / s).epsilon(1e-6));
    CHECK(out[4] == doctest::Approx(1.0 / 3).epsilon(1e-6));
    CHECK(r.guards_intact);
  }
  SUBCASE("FILL whose dims are a request input") {
    nnhal::ModelBuilder b;
    const auto dims = b.input<OperandType::TENSOR_INT32>({{2}});
    const auto value = b.scalar<OperandType::INT32>(9);
    b.output(b.operation<OperationType::FILL, OperandType::TENSOR_INT32>({{0, 0}}, dims, value));
    const auto r = t::run_model(std::move(b).model(), {t::arg_of(std::vector<std::int32_t>{3, 2})},
                                {t::output_of(6 * sizeof(std::int32_t))});
    REQUIRE_MESSAGE(r.status.has_value(), std::string(r.status ? "" : r.status.error().c_str()));
    CHECK(r.shapes[0].dimensions == std::vector<std::uint32_t>{3, 2});
    CHECK(r.output<std::int32_t>(0) == std::vector<std::int32_t>(6, 9));
    CHECK(r.guards_intact);
  }
  SUBCASE("RANK of a request input to a scalar model output") {
    nnhal::ModelBuilder b;
    const auto in = b.input<OperandType::TENSOR_QUANT8_ASYMM>({{2, 2, 1, 1}, 0.5f, 0});
    b.output(b.operation<OperationType::RANK, OperandType::INT32>({}, in));
    const auto r = t::run_model(std::move(b).model(), {t::arg_of(std::vector<std::uint8_t>{1, 2, 3, 4})},
                                {t::output_of(sizeof(std::int32_t))});
    REQUIRE_MESSAGE(r.status.has_value(), std::string(r.status ? "" : r.status.error().c_str()));
    CHECK(r.output<std::int32_t>(0) == std::vector<std::int32_t>{4});
  }
}
