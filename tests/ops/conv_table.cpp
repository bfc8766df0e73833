// Table rows of CONV_2D and DEPTHWISE_CONV_2D (operations.md 3, 4): the input-count forms,
// filter/bias type configurations, per-channel channelDim, ranks and the QA8 scale rule.
#include <doctest/doctest.h>

#include "ops/table_test_util.hpp"

using namespace nnhal;
using nnhal::test::concat;
using nnhal::test::lowest_version;
using nnhal::test::OneOpModel;
using nnhal::test::repeat;
using enum nnhal::OperandType;

namespace {
constexpr auto kConv = OperationType::CONV_2D;
constexpr auto kDepthwise = OperationType::DEPTHWISE_CONV_2D;

/// input, filter, bias, then `n` INT32 scalars.
std::vector<OperandType> conv_in(OperandType in, OperandType filter, OperandType bias, std::size_t n) {
  return concat({{in, filter, bias}, repeat(INT32, n)});
}
std::vector<OperandType> f32(std::size_t n) { return conv_in(TENSOR_FLOAT32, TENSOR_FLOAT32, TENSOR_FLOAT32, n); }

/// A QA8 / QPC8 conv with known shapes for validate tests.
OneOpModel quant_conv(OperationType op, OperandType filter_type, std::uint32_t channel_dim) {
  OneOpModel m(op);
  m.in(TENSOR_QUANT8_ASYMM, {1, 4, 4, 2}).scale = 0.5f;
  Operand& f = m.in(filter_type, {2, 2, 2, 2});
  if (filter_type == TENSOR_QUANT8_SYMM_PER_CHANNEL) {
    f.channelQuant = SymmPerChannelQuantParams{{0.5f, 0.25f}, channel_dim};
  } else {
    f.scale = 0.5f;
  }
  m.in(TENSOR_INT32, {2});
  m.ins(repeat(INT32, op == kConv ? 4 : 5));
  m.out(TENSOR_QUANT8_ASYMM, {1, 4, 4, 2}).scale = 1.0f;
  return m;
}
}  // namespace

TEST_CASE("CONV_2D / DEPTHWISE_CONV_2D rows: slots and flags") {
  const OperationInfo* conv = find_operation(kConv);
  const OperationInfo* dw = find_operation(kDepthwise);
  REQUIRE(conv != nullptr);
  REQUIRE(dw != nullptr);
  CHECK(conv->inputs.size() == 13);
  CHECK(dw->inputs.size() == 14);
  CHECK(conv->inputs[1].role == Role::Weights);
  CHECK(conv->inputs[2].role == Role::Bias);
  CHECK(dw->inputs[9].name == "depth_multiplier");
  CHECK(conv->has(kOpAllowsZeroSized));
  CHECK(dw->has(kOpAllowsZeroSized));
  CHECK((conv->validate != nullptr));
  CHECK((dw->validate != nullptr));
}

TEST_CASE("CONV_2D: input counts 7, 8, 10, 11, 13") {
  const std::vector<OperandType> out{TENSOR_FLOAT32};
  CHECK(lowest_version(kConv, f32(4), out) == HalVersion::V1_0);                          // implicit
  CHECK(lowest_version(kConv, concat({f32(4), {BOOL}}), out) == HalVersion::V1_2);        // + layout
  CHECK(lowest_version(kConv, concat({f32(4), {BOOL, INT32, INT32}}), out) == HalVersion::V1_2);  // + dilation
  CHECK(lowest_version(kConv, f32(7), out) == HalVersion::V1_0);                          // explicit
  CHECK(lowest_version(kConv, concat({f32(7), {BOOL}}), out) == HalVersion::V1_2);
  CHECK(lowest_version(kConv, concat({f32(7), {BOOL, INT32, INT32}}), out) == HalVersion::V1_2);
  // One dilation factor only (9 or 12 inputs), implicit with 11 inputs, missing layout: invalid.
  CHECK_FALSE(lowest_version(kConv, concat({f32(4), {BOOL, INT32}}), out));
  CHECK_FALSE(lowest_version(kConv, concat({f32(7), {BOOL, INT32}}), out));
  CHECK_FALSE(lowest_version(kConv, concat({f32(4), {BOOL, INT32, INT32, INT32}}), out));
  CHECK_FALSE(lowest_version(kConv, concat({f32(7), {INT32, INT32}}), out));
  CHECK_FALSE(lowest_version(kConv, f32(3), out));
}

TEST_CASE("CONV_2D / DEPTHWISE_CONV_2D: type configurations") {
  for (auto [op, n] : {std::pair{kConv, std::size_t{4}}, std::pair{kDepthwise, std::size_t{5}}}) {
    CHECK(lowest_version(op, conv_in(TENSOR_QUANT8_ASYMM, TENSOR_QUANT8_ASYMM, TENSOR_INT32, n),
                         {TENSOR_QUANT8_ASYMM}) == HalVersion::V1_0);
    CHECK(lowest_version(op, conv_in(TENSOR_FLOAT16, TENSOR_FLOAT16, TENSOR_FLOAT16, n), {TENSOR_FLOAT16}) ==
          HalVersion::V1_2);
    CHECK(lowest_version(op, conv_in(TENSOR_QUANT8_ASYMM, TENSOR_QUANT8_SYMM_PER_CHANNEL, TENSOR_INT32, n),
                         {TENSOR_QUANT8_ASYMM}) == HalVersion::V1_2);
    CHECK(lowest_version(op, conv_in(TENSOR_QUANT8_ASYMM_SIGNED, TENSOR_QUANT8_ASYMM_SIGNED, TENSOR_INT32, n),
                         {TENSOR_QUANT8_ASYMM_SIGNED}) == HalVersion::V1_3);
    CHECK(lowest_version(op, conv_in(TENSOR_QUANT8_ASYMM_SIGNED, TENSOR_QUANT8_SYMM_PER_CHANNEL, TENSOR_INT32, n),
                         {TENSOR_QUANT8_ASYMM_SIGNED}) == HalVersion::V1_3);
    // Float bias with quantized input, per-channel filter with float input, mixed signedness.
    CHECK_FALSE(lowest_version(op, conv_in(TENSOR_QUANT8_ASYMM, TENSOR_QUANT8_ASYMM, TENSOR_FLOAT32, n),
                               {TENSOR_QUANT8_ASYMM}));
    CHECK_FALSE(lowest_version(op, conv_in(TENSOR_FLOAT32, TENSOR_QUANT8_SYMM_PER_CHANNEL, TENSOR_FLOAT32, n),
                               {TENSOR_FLOAT32}));
    CHECK_FALSE(lowest_version(op, conv_in(TENSOR_QUANT8_ASYMM, TENSOR_QUANT8_ASYMM_SIGNED, TENSOR_INT32, n),
                               {TENSOR_QUANT8_ASYMM}));
    CHECK_FALSE(lowest_version(op, conv_in(TENSOR_FLOAT16, TENSOR_FLOAT16, TENSOR_FLOAT32, n), {TENSOR_FLOAT16}));
  }
}

TEST_CASE("DEPTHWISE_CONV_2D: input counts 8, 9, 11, 12, 14") {
  const std::vector<OperandType> out{TENSOR_FLOAT32};
  CHECK(lowest_version(kDepthwise, f32(5), out) == HalVersion::V1_0);
  CHECK(lowest_version(kDepthwise, concat({f32(5), {BOOL}}), out) == HalVersion::V1_2);
  CHECK(lowest_version(kDepthwise, concat({f32(5), {BOOL, INT32, INT32}}), out) == HalVersion::V1_2);
  CHECK(lowest_version(kDepthwise, f32(8), out) == HalVersion::V1_0);
  CHECK(lowest_version(kDepthwise, concat({f32(8), {BOOL}}), out) == HalVersion::V1_2);
  CHECK(lowest_version(kDepthwise, concat({f32(8), {BOOL, INT32, INT32}}), out) == HalVersion::V1_2);
  CHECK_FALSE(lowest_version(kDepthwise, concat({f32(5), {BOOL, INT32}}), out));   // 10
  CHECK_FALSE(lowest_version(kDepthwise, concat({f32(8), {BOOL, INT32}}), out));   // 13
  CHECK_FALSE(lowest_version(kDepthwise, f32(4), out));                            // CONV_2D's count
}

TEST_CASE("CONV_2D / DEPTHWISE_CONV_2D validate: per-channel channelDim") {
  {
    auto m = quant_conv(kConv, TENSOR_QUANT8_SYMM_PER_CHANNEL, 0);
    auto v = m.check();
    REQUIRE(v);
    CHECK(*v == HalVersion::V1_2);
    auto bad = quant_conv(kConv, TENSOR_QUANT8_SYMM_PER_CHANNEL, 3);
    auto e = bad.check();
    REQUIRE_FALSE(e);
    CHECK(e.error().status() == ErrorStatus::INVALID_ARGUMENT);
  }
  {
    auto m = quant_conv(kDepthwise, TENSOR_QUANT8_SYMM_PER_CHANNEL, 3);
    auto v = m.check();
    REQUIRE(v);
    CHECK(*v == HalVersion::V1_2);
    CHECK_FALSE(quant_conv(kDepthwise, TENSOR_QUANT8_SYMM_PER_CHANNEL, 0).check());
  }
}

TEST_CASE("CONV_2D / DEPTHWISE_CONV_2D validate: ranks") {
  for (OperationType op : {kConv, kDepthwise}) {
    auto m = quant_conv(op, TENSOR_QUANT8_ASYMM, 0);
    CHECK(m.check());
    m.input(0).dimensions = {4, 4, 2};
    CHECK_FALSE(m.check());
    m.input(0).dimensions = {};  // unknown rank: left to execution
    CHECK(m.check());
    m.input(1).dimensions = {2, 2, 2, 2, 1};
    CHECK_FALSE(m.check());
  }
}

TEST_CASE("CONV_2D / DEPTHWISE_CONV_2D validate: QA8 scale rule (reference quirk)") {
  for (OperationType op : {kConv, kDepthwise}) {
    auto m = quant_conv(op, TENSOR_QUANT8_ASYMM, 0);
    // input 0.5, filter 0.5, output 1.0: the rule holds either way.
    auto v = m.check();
    REQUIRE(v);
    CHECK(*v == HalVersion::V1_0);
    // filter 2.0, output 4.0: output > input * filter (1.0) holds, but the reference tests the
    // input scale in place of the output scale (0.5 > 1.0 fails) and derives 1.2.
    m.input(1).scale = 2.0f;
    m.output(0).scale = 4.0f;
    v = m.check();
    REQUIRE(v);
    CHECK(*v == HalVersion::V1_2);
  }
}
