// Table rows of the unary operations of HAL 1.0: FLOOR, LOGISTIC, RELU, RELU1, RELU6, TANH and
// DEQUANTIZE (operations.md 6, 8, 14, 19-21, 28): types, versions, rank limit, zero-sized flag.
#include <doctest/doctest.h>

#include "ops/table_test_util.hpp"

using namespace nnhal;
using nnhal::test::lowest_version;
using nnhal::test::OneOpModel;
using enum nnhal::OperandType;

TEST_CASE("RELU, RELU1, RELU6, LOGISTIC: F32, QA8 1.0; F16 1.2; QAS8 1.3") {
  for (OperationType op : {OperationType::RELU, OperationType::RELU1, OperationType::RELU6, OperationType::LOGISTIC}) {
    const OperationInfo* info = find_operation(op);
    REQUIRE(info != nullptr);
    CHECK(info->inputs.size() == 1);
    CHECK(info->outputs.size() == 1);
    CHECK(info->has(kOpAllowsZeroSized));
    CHECK(lowest_version(op, {TENSOR_FLOAT32}, {TENSOR_FLOAT32}) == HalVersion::V1_0);
    CHECK(lowest_version(op, {TENSOR_QUANT8_ASYMM}, {TENSOR_QUANT8_ASYMM}) == HalVersion::V1_0);
    CHECK(lowest_version(op, {TENSOR_FLOAT16}, {TENSOR_FLOAT16}) == HalVersion::V1_2);
    CHECK(lowest_version(op, {TENSOR_QUANT8_ASYMM_SIGNED}, {TENSOR_QUANT8_ASYMM_SIGNED}) == HalVersion::V1_3);
    CHECK_FALSE(lowest_version(op, {TENSOR_INT32}, {TENSOR_INT32}));
    CHECK_FALSE(lowest_version(op, {TENSOR_FLOAT32}, {TENSOR_FLOAT16}));
    CHECK_FALSE(lowest_version(op, {TENSOR_FLOAT32, TENSOR_FLOAT32}, {TENSOR_FLOAT32}));
  }
}

TEST_CASE("TANH: quantized TANH is 1.2") {
  const auto op = OperationType::TANH;
  CHECK(find_operation(op)->has(kOpAllowsZeroSized));
  CHECK(lowest_version(op, {TENSOR_FLOAT32}, {TENSOR_FLOAT32}) == HalVersion::V1_0);
  CHECK(lowest_version(op, {TENSOR_FLOAT16}, {TENSOR_FLOAT16}) == HalVersion::V1_2);
  CHECK(lowest_version(op, {TENSOR_QUANT8_ASYMM}, {TENSOR_QUANT8_ASYMM}) == HalVersion::V1_2);
  CHECK(lowest_version(op, {TENSOR_QUANT8_ASYMM_SIGNED}, {TENSOR_QUANT8_ASYMM_SIGNED}) == HalVersion::V1_3);
}

TEST_CASE("FLOOR: F32 1.0, F16 1.2, no quantized types, not zero-sized") {
  const auto op = OperationType::FLOOR;
  CHECK_FALSE(find_operation(op)->has(kOpAllowsZeroSized));
  CHECK(lowest_version(op, {TENSOR_FLOAT32}, {TENSOR_FLOAT32}) == HalVersion::V1_0);
  CHECK(lowest_version(op, {TENSOR_FLOAT16}, {TENSOR_FLOAT16}) == HalVersion::V1_2);
  CHECK_FALSE(lowest_version(op, {TENSOR_QUANT8_ASYMM}, {TENSOR_QUANT8_ASYMM}));
}

TEST_CASE("unary rows: input rank <= 4 when known") {
  for (OperationType op : {OperationType::FLOOR, OperationType::LOGISTIC, OperationType::RELU,
                           OperationType::RELU1, OperationType::RELU6, OperationType::TANH}) {
    OneOpModel m(op);
    m.in(TENSOR_FLOAT32, {1, 2, 3, 4});
    m.out(TENSOR_FLOAT32);
    auto v = m.check();
    REQUIRE(v);
    CHECK(*v == HalVersion::V1_0);
    m.input(0).dimensions = {1, 2, 3, 4, 5};
    auto e = m.check();
    REQUIRE_FALSE(e);
    CHECK(e.error().status() == ErrorStatus::INVALID_ARGUMENT);
  }
}

TEST_CASE("DEQUANTIZE: input/output type pairs") {
  const auto op = OperationType::DEQUANTIZE;
  CHECK(find_operation(op)->has(kOpAllowsZeroSized));
  CHECK(lowest_version(op, {TENSOR_QUANT8_ASYMM}, {TENSOR_FLOAT32}) == HalVersion::V1_0);
  CHECK(lowest_version(op, {TENSOR_QUANT8_ASYMM}, {TENSOR_FLOAT16}) == HalVersion::V1_2);
  CHECK(lowest_version(op, {TENSOR_QUANT8_SYMM}, {TENSOR_FLOAT32}) == HalVersion::V1_2);
  CHECK(lowest_version(op, {TENSOR_QUANT8_SYMM_PER_CHANNEL}, {TENSOR_FLOAT16}) == HalVersion::V1_2);
  CHECK(lowest_version(op, {TENSOR_QUANT8_ASYMM_SIGNED}, {TENSOR_FLOAT32}) == HalVersion::V1_3);
  CHECK(lowest_version(op, {TENSOR_QUANT8_ASYMM_SIGNED}, {TENSOR_FLOAT16}) == HalVersion::V1_3);
  CHECK_FALSE(lowest_version(op, {TENSOR_FLOAT32}, {TENSOR_FLOAT32}));
  CHECK_FALSE(lowest_version(op, {TENSOR_QUANT8_ASYMM}, {TENSOR_QUANT8_ASYMM}));
  CHECK_FALSE(lowest_version(op, {TENSOR_QUANT16_SYMM}, {TENSOR_FLOAT32}));

  OneOpModel m(op);
  m.in(TENSOR_QUANT8_ASYMM, {1, 1, 1, 1, 2});
  m.out(TENSOR_FLOAT32);
  CHECK_FALSE(m.check());
}
