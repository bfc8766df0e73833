// Table rows of GROUPED_CONV_2D and TRANSPOSE_CONV_2D (operations.md 55, 91): implicit and
// explicit padding forms, the six filter configurations, and the per-channel channelDim rule.
#include <doctest/doctest.h>

#include "ops/table_test_util.hpp"

using namespace nnhal;
using nnhal::test::concat;
using nnhal::test::lowest_version;
using nnhal::test::OneOpModel;
using nnhal::test::repeat;
using enum nnhal::OperandType;

namespace {
std::vector<OperandType> grouped(OperandType in, OperandType filter, OperandType bias,
                                 bool explicit_padding) {
  return concat({{in, filter, bias}, repeat(INT32, explicit_padding ? 8 : 5), {BOOL}});
}
std::vector<OperandType> transpose(OperandType in, OperandType filter, OperandType bias,
                                   bool explicit_padding) {
  if (explicit_padding) return concat({{in, filter, bias}, repeat(INT32, 7), {BOOL}});
  return concat({{in, filter, bias, TENSOR_INT32}, repeat(INT32, 4), {BOOL}});
}

/// A QA8 (or QAS8) operation with a per-channel filter quantized along `channel_dim`.
OneOpModel per_channel(OperationType op, OperandType in, std::uint32_t channel_dim) {
  OneOpModel m(op);
  m.in(in, {1, 4, 4, 2});
  Operand& filter = m.in(TENSOR_QUANT8_SYMM_PER_CHANNEL, {2, 1, 1, 2});
  filter.channelQuant = SymmPerChannelQuantParams{{0.5f, 0.5f}, channel_dim};
  m.in(TENSOR_INT32, {2});
  if (op == OperationType::TRANSPOSE_CONV_2D) m.in(TENSOR_INT32, {4});
  m.ins(repeat(INT32, op == OperationType::GROUPED_CONV_2D ? 5 : 4));
  m.in(BOOL);
  m.out(in);
  return m;
}
}  // namespace

TEST_CASE("GROUPED_CONV_2D: 9 or 12 inputs, layout mandatory") {
  const auto op = OperationType::GROUPED_CONV_2D;
  CHECK_FALSE(find_operation(op)->has(kOpAllowsZeroSized));
  for (bool e : {false, true}) {
    CAPTURE(e);
    CHECK(lowest_version(op, grouped(TENSOR_FLOAT32, TENSOR_FLOAT32, TENSOR_FLOAT32, e),
                         {TENSOR_FLOAT32}) == HalVersion::V1_2);
    CHECK(lowest_version(op, grouped(TENSOR_FLOAT16, TENSOR_FLOAT16, TENSOR_FLOAT16, e),
                         {TENSOR_FLOAT16}) == HalVersion::V1_2);
    CHECK(lowest_version(op, grouped(TENSOR_QUANT8_ASYMM, TENSOR_QUANT8_ASYMM, TENSOR_INT32, e),
                         {TENSOR_QUANT8_ASYMM}) == HalVersion::V1_2);
    CHECK(lowest_version(
              op, grouped(TENSOR_QUANT8_ASYMM, TENSOR_QUANT8_SYMM_PER_CHANNEL, TENSOR_INT32, e),
              {TENSOR_QUANT8_ASYMM}) == HalVersion::V1_2);
    CHECK(lowest_version(
              op,
              grouped(TENSOR_QUANT8_ASYMM_SIGNED, TENSOR_QUANT8_SYMM_PER_CHANNEL, TENSOR_INT32, e),
              {TENSOR_QUANT8_ASYMM_SIGNED}) == HalVersion::V1_3);
    CHECK_FALSE(lowest_version(op, grouped(TENSOR_FLOAT32, TENSOR_FLOAT32, TENSOR_INT32, e),
                               {TENSOR_FLOAT32}));
    CHECK_FALSE(lowest_version(
        op, grouped(TENSOR_QUANT8_ASYMM, TENSOR_QUANT8_ASYMM_SIGNED, TENSOR_INT32, e),
        {TENSOR_QUANT8_ASYMM}));
  }
  // Without the layout flag neither form exists.
  CHECK_FALSE(lowest_version(
      op, concat({{TENSOR_FLOAT32, TENSOR_FLOAT32, TENSOR_FLOAT32}, repeat(INT32, 5)}),
      {TENSOR_FLOAT32}));
}

TEST_CASE("TRANSPOSE_CONV_2D: implicit form takes an output-shape tensor") {
  const auto op = OperationType::TRANSPOSE_CONV_2D;
  CHECK(find_operation(op)->has(kOpAllowsZeroSized));
  for (bool e : {false, true}) {
    CAPTURE(e);
    CHECK(lowest_version(op, transpose(TENSOR_FLOAT32, TENSOR_FLOAT32, TENSOR_FLOAT32, e),
                         {TENSOR_FLOAT32}) == HalVersion::V1_2);
    CHECK(lowest_version(
              op, transpose(TENSOR_QUANT8_ASYMM, TENSOR_QUANT8_SYMM_PER_CHANNEL, TENSOR_INT32, e),
              {TENSOR_QUANT8_ASYMM}) == HalVersion::V1_2);
    CHECK(lowest_version(
              op,
              transpose(TENSOR_QUANT8_ASYMM_SIGNED, TENSOR_QUANT8_ASYMM_SIGNED, TENSOR_INT32, e),
              {TENSOR_QUANT8_ASYMM_SIGNED}) == HalVersion::V1_3);
  }
  // An INT32 scalar where the implicit form has its output-shape tensor matches nothing.
  CHECK_FALSE(lowest_version(
      op, concat({{TENSOR_FLOAT32, TENSOR_FLOAT32, TENSOR_FLOAT32}, repeat(INT32, 5), {BOOL}}),
      {TENSOR_FLOAT32}));
}

TEST_CASE("GROUPED_CONV_2D / TRANSPOSE_CONV_2D: per-channel filter must use channelDim 0") {
  for (OperationType op : {OperationType::GROUPED_CONV_2D, OperationType::TRANSPOSE_CONV_2D}) {
    CAPTURE(static_cast<int>(op));
    CHECK(per_channel(op, TENSOR_QUANT8_ASYMM, 0).check().value() == HalVersion::V1_2);
    CHECK(per_channel(op, TENSOR_QUANT8_ASYMM_SIGNED, 0).check().value() == HalVersion::V1_3);
    auto r = per_channel(op, TENSOR_QUANT8_ASYMM, 3).check();
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().status() == ErrorStatus::INVALID_ARGUMENT);
    CHECK(r.error().message().find("input 1") != std::string_view::npos);
  }
}
