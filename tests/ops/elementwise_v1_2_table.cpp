// Table rows of the elementwise and small operations added in HAL 1.2 / 1.3 (operations.md 38,
// 49, 60, 67, 72, 83, 85, 88, 98..101): accepted types per version, rejected combinations
// (including the post-1.3 quantized RSQRT) and the zero-sized flags.
#include <doctest/doctest.h>

#include "ops/table_test_util.hpp"

using namespace nnhal;
using nnhal::test::lowest_version;
using enum nnhal::OperandType;

TEST_CASE("ABS: F16, F32 1.2; I32 1.3") {
  const auto op = OperationType::ABS;
  CHECK(find_operation(op)->inputs.size() == 1);
  CHECK(find_operation(op)->outputs.size() == 1);
  CHECK(lowest_version(op, {TENSOR_FLOAT16}, {TENSOR_FLOAT16}) == HalVersion::V1_2);
  CHECK(lowest_version(op, {TENSOR_FLOAT32}, {TENSOR_FLOAT32}) == HalVersion::V1_2);
  CHECK(lowest_version(op, {TENSOR_INT32}, {TENSOR_INT32}) == HalVersion::V1_3);
  CHECK_FALSE(lowest_version(op, {TENSOR_QUANT8_ASYMM}, {TENSOR_QUANT8_ASYMM}));
  CHECK_FALSE(lowest_version(op, {TENSOR_FLOAT32}, {TENSOR_FLOAT16}));
  CHECK_FALSE(lowest_version(op, {TENSOR_FLOAT32, TENSOR_FLOAT32}, {TENSOR_FLOAT32}));
}

TEST_CASE("EXP, LOG, SIN, SQRT, RSQRT: F16, F32 only; quantized RSQRT is beyond HAL 1.3") {
  for (OperationType op : {OperationType::EXP, OperationType::LOG, OperationType::SIN,
                           OperationType::SQRT, OperationType::RSQRT}) {
    CAPTURE(static_cast<int>(op));
    CHECK(lowest_version(op, {TENSOR_FLOAT16}, {TENSOR_FLOAT16}) == HalVersion::V1_2);
    CHECK(lowest_version(op, {TENSOR_FLOAT32}, {TENSOR_FLOAT32}) == HalVersion::V1_2);
    CHECK_FALSE(lowest_version(op, {TENSOR_INT32}, {TENSOR_INT32}));
    CHECK_FALSE(lowest_version(op, {TENSOR_QUANT8_ASYMM}, {TENSOR_QUANT8_ASYMM}));
    CHECK_FALSE(lowest_version(op, {TENSOR_QUANT8_ASYMM_SIGNED}, {TENSOR_QUANT8_ASYMM_SIGNED}));
    CHECK_FALSE(find_operation(op)->has(kOpAllowsZeroSized));
  }
}

TEST_CASE("NEG: F16, F32, I32 all 1.2") {
  const auto op = OperationType::NEG;
  for (OperandType t : {TENSOR_FLOAT16, TENSOR_FLOAT32, TENSOR_INT32})
    CHECK(lowest_version(op, {t}, {t}) == HalVersion::V1_2);
  CHECK_FALSE(lowest_version(op, {TENSOR_QUANT8_ASYMM}, {TENSOR_QUANT8_ASYMM}));
}

TEST_CASE("QUANTIZE: float to QA8 (1.2) or QAS8 (1.3), zero-sized allowed") {
  const auto op = OperationType::QUANTIZE;
  CHECK(find_operation(op)->has(kOpAllowsZeroSized));
  for (OperandType f : {TENSOR_FLOAT16, TENSOR_FLOAT32}) {
    CHECK(lowest_version(op, {f}, {TENSOR_QUANT8_ASYMM}) == HalVersion::V1_2);
    CHECK(lowest_version(op, {f}, {TENSOR_QUANT8_ASYMM_SIGNED}) == HalVersion::V1_3);
    CHECK_FALSE(lowest_version(op, {f}, {TENSOR_QUANT8_SYMM}));
    CHECK_FALSE(lowest_version(op, {f}, {f}));
  }
  CHECK_FALSE(lowest_version(op, {TENSOR_INT32}, {TENSOR_QUANT8_ASYMM}));
}

TEST_CASE("HARD_SWISH: F16, F32, QA8, QAS8 all 1.3, zero-sized allowed") {
  const auto op = OperationType::HARD_SWISH;
  CHECK(find_operation(op)->since == HalVersion::V1_3);
  CHECK(find_operation(op)->has(kOpAllowsZeroSized));
  for (OperandType t :
       {TENSOR_FLOAT16, TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM, TENSOR_QUANT8_ASYMM_SIGNED})
    CHECK(lowest_version(op, {t}, {t}) == HalVersion::V1_3);
  CHECK_FALSE(lowest_version(op, {TENSOR_INT32}, {TENSOR_INT32}));
}

TEST_CASE(
    "ELU: {T, fT} -> T, 1.3, no zero-sized inputs (executor registration wins over the doc)") {
  const auto op = OperationType::ELU;
  CHECK(find_operation(op)->inputs.size() == 2);
  CHECK(lowest_version(op, {TENSOR_FLOAT32, FLOAT32}, {TENSOR_FLOAT32}) == HalVersion::V1_3);
  CHECK(lowest_version(op, {TENSOR_FLOAT16, FLOAT16}, {TENSOR_FLOAT16}) == HalVersion::V1_3);
  CHECK_FALSE(lowest_version(op, {TENSOR_FLOAT16, FLOAT32}, {TENSOR_FLOAT16}));
  CHECK_FALSE(lowest_version(op, {TENSOR_FLOAT32}, {TENSOR_FLOAT32}));
  CHECK_FALSE(find_operation(op)->has(kOpAllowsZeroSized));
}

TEST_CASE("FILL: the value scalar follows the output type") {
  const auto op = OperationType::FILL;
  CHECK(lowest_version(op, {TENSOR_INT32, FLOAT16}, {TENSOR_FLOAT16}) == HalVersion::V1_3);
  CHECK(lowest_version(op, {TENSOR_INT32, FLOAT32}, {TENSOR_FLOAT32}) == HalVersion::V1_3);
  CHECK(lowest_version(op, {TENSOR_INT32, INT32}, {TENSOR_INT32}) == HalVersion::V1_3);
  CHECK_FALSE(lowest_version(op, {TENSOR_INT32, FLOAT32}, {TENSOR_FLOAT16}));
  CHECK_FALSE(lowest_version(op, {TENSOR_INT32, INT32}, {TENSOR_QUANT8_ASYMM}));
  CHECK_FALSE(lowest_version(op, {TENSOR_FLOAT32, FLOAT32}, {TENSOR_FLOAT32}));
}

TEST_CASE("RANK: any of ten tensor types to an INT32 scalar, 1.3") {
  const auto op = OperationType::RANK;
  for (OperandType t : {TENSOR_FLOAT16, TENSOR_FLOAT32, TENSOR_INT32, TENSOR_QUANT8_ASYMM,
                        TENSOR_QUANT16_SYMM, TENSOR_BOOL8, TENSOR_QUANT8_SYMM_PER_CHANNEL,
                        TENSOR_QUANT16_ASYMM, TENSOR_QUANT8_SYMM, TENSOR_QUANT8_ASYMM_SIGNED})
    CHECK(lowest_version(op, {t}, {INT32}) == HalVersion::V1_3);
  CHECK_FALSE(lowest_version(op, {TENSOR_FLOAT32}, {TENSOR_INT32}));
  CHECK_FALSE(lowest_version(op, {FLOAT32}, {INT32}));
}
