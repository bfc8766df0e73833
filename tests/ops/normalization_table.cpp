// Table rows of L2_NORMALIZATION, LOCAL_RESPONSE_NORMALIZATION, SOFTMAX and RESIZE_BILINEAR
// (operations.md 11, 13, 25, 23): optional axis / layout / corner inputs and the rank rules that
// raise the version.
#include <doctest/doctest.h>

#include "ops/table_test_util.hpp"

using namespace nnhal;
using nnhal::test::lowest_version;
using nnhal::test::OneOpModel;
using enum nnhal::OperandType;

TEST_CASE("L2_NORMALIZATION: types, axis input, rank rules") {
  const auto op = OperationType::L2_NORMALIZATION;
  CHECK(find_operation(op)->inputs[1].flags == kSlotTrailing);
  CHECK(lowest_version(op, {TENSOR_FLOAT32}, {TENSOR_FLOAT32}) == HalVersion::V1_0);
  CHECK(lowest_version(op, {TENSOR_FLOAT32, INT32}, {TENSOR_FLOAT32}) == HalVersion::V1_2);
  CHECK(lowest_version(op, {TENSOR_QUANT8_ASYMM}, {TENSOR_QUANT8_ASYMM}) == HalVersion::V1_2);
  CHECK(lowest_version(op, {TENSOR_FLOAT16}, {TENSOR_FLOAT16}) == HalVersion::V1_2);
  CHECK(lowest_version(op, {TENSOR_QUANT8_ASYMM_SIGNED, INT32}, {TENSOR_QUANT8_ASYMM_SIGNED}) == HalVersion::V1_3);
  CHECK_FALSE(lowest_version(op, {TENSOR_FLOAT32, FLOAT32}, {TENSOR_FLOAT32}));

  OneOpModel m(op);
  m.in(TENSOR_FLOAT32, {1, 2, 2, 3});
  m.out(TENSOR_FLOAT32);
  auto v = m.check();
  REQUIRE(v);
  CHECK(*v == HalVersion::V1_0);
  m.input(0).dimensions = {2, 3};  // rank != 4 without an axis: 1.2
  v = m.check();
  REQUIRE(v);
  CHECK(*v == HalVersion::V1_2);
  m.input(0).dimensions = {1, 1, 2, 2, 3};
  CHECK_FALSE(m.check());
}

TEST_CASE("LOCAL_RESPONSE_NORMALIZATION: scalar types follow the tensor type") {
  const auto op = OperationType::LOCAL_RESPONSE_NORMALIZATION;
  CHECK(find_operation(op)->inputs.size() == 6);
  CHECK(lowest_version(op, {TENSOR_FLOAT32, INT32, FLOAT32, FLOAT32, FLOAT32}, {TENSOR_FLOAT32}) == HalVersion::V1_0);
  CHECK(lowest_version(op, {TENSOR_FLOAT32, INT32, FLOAT32, FLOAT32, FLOAT32, INT32}, {TENSOR_FLOAT32}) ==
        HalVersion::V1_2);
  CHECK(lowest_version(op, {TENSOR_FLOAT16, INT32, FLOAT16, FLOAT16, FLOAT16}, {TENSOR_FLOAT16}) == HalVersion::V1_2);
  CHECK_FALSE(lowest_version(op, {TENSOR_FLOAT16, INT32, FLOAT32, FLOAT32, FLOAT32}, {TENSOR_FLOAT16}));
  CHECK_FALSE(lowest_version(op, {TENSOR_QUANT8_ASYMM, INT32, FLOAT32, FLOAT32, FLOAT32}, {TENSOR_QUANT8_ASYMM}));

  OneOpModel m(op);
  m.in(TENSOR_FLOAT32, {1, 2, 3});
  m.ins({INT32, FLOAT32, FLOAT32, FLOAT32});
  m.out(TENSOR_FLOAT32);
  auto v = m.check();
  REQUIRE(v);
  CHECK(*v == HalVersion::V1_2);
  m.input(0).dimensions = {1, 2, 3, 4};
  v = m.check();
  REQUIRE(v);
  CHECK(*v == HalVersion::V1_0);
}

TEST_CASE("SOFTMAX: beta type, axis input, rank rules") {
  const auto op = OperationType::SOFTMAX;
  CHECK(find_operation(op)->has(kOpAllowsZeroSized));
  CHECK(lowest_version(op, {TENSOR_FLOAT32, FLOAT32}, {TENSOR_FLOAT32}) == HalVersion::V1_0);
  CHECK(lowest_version(op, {TENSOR_QUANT8_ASYMM, FLOAT32}, {TENSOR_QUANT8_ASYMM}) == HalVersion::V1_0);
  CHECK(lowest_version(op, {TENSOR_FLOAT16, FLOAT16}, {TENSOR_FLOAT16}) == HalVersion::V1_2);
  CHECK(lowest_version(op, {TENSOR_QUANT8_ASYMM_SIGNED, FLOAT32}, {TENSOR_QUANT8_ASYMM_SIGNED}) == HalVersion::V1_3);
  CHECK(lowest_version(op, {TENSOR_FLOAT32, FLOAT32, INT32}, {TENSOR_FLOAT32}) == HalVersion::V1_2);
  CHECK_FALSE(lowest_version(op, {TENSOR_FLOAT16, FLOAT32}, {TENSOR_FLOAT16}));
  CHECK_FALSE(lowest_version(op, {TENSOR_QUANT8_ASYMM, FLOAT16}, {TENSOR_QUANT8_ASYMM}));

  OneOpModel m(op);
  m.in(TENSOR_FLOAT32, {2, 3});
  m.in(FLOAT32);
  m.out(TENSOR_FLOAT32);
  auto v = m.check();
  REQUIRE(v);
  CHECK(*v == HalVersion::V1_0);
  m.input(0).dimensions = {2, 3, 4};  // rank 3 without an axis: 1.2
  v = m.check();
  REQUIRE(v);
  CHECK(*v == HalVersion::V1_2);
  m.input(0).dimensions = {1, 2, 3, 4, 5};
  CHECK_FALSE(m.check());
}

TEST_CASE("RESIZE_BILINEAR: by size or by scale, 3..6 inputs") {
  const auto op = OperationType::RESIZE_BILINEAR;
  const OperationInfo* info = find_operation(op);
  REQUIRE(info != nullptr);
  CHECK(info->inputs.size() == 6);
  CHECK(info->has(kOpAllowsZeroSized));
  const std::vector<OperandType> f32{TENSOR_FLOAT32};
  CHECK(lowest_version(op, {TENSOR_FLOAT32, INT32, INT32}, f32) == HalVersion::V1_0);
  CHECK(lowest_version(op, {TENSOR_FLOAT32, FLOAT32, FLOAT32}, f32) == HalVersion::V1_2);
  CHECK(lowest_version(op, {TENSOR_FLOAT32, INT32, INT32, BOOL}, f32) == HalVersion::V1_2);
  CHECK(lowest_version(op, {TENSOR_FLOAT32, INT32, INT32, BOOL, BOOL}, f32) == HalVersion::V1_3);
  CHECK(lowest_version(op, {TENSOR_FLOAT32, FLOAT32, FLOAT32, BOOL, BOOL, BOOL}, f32) == HalVersion::V1_3);
  CHECK(lowest_version(op, {TENSOR_QUANT8_ASYMM, INT32, INT32}, {TENSOR_QUANT8_ASYMM}) == HalVersion::V1_2);
  CHECK(lowest_version(op, {TENSOR_QUANT8_ASYMM, FLOAT32, FLOAT32}, {TENSOR_QUANT8_ASYMM}) == HalVersion::V1_2);
  CHECK(lowest_version(op, {TENSOR_FLOAT16, FLOAT16, FLOAT16}, {TENSOR_FLOAT16}) == HalVersion::V1_2);
  CHECK(lowest_version(op, {TENSOR_QUANT8_ASYMM_SIGNED, INT32, INT32}, {TENSOR_QUANT8_ASYMM_SIGNED}) ==
        HalVersion::V1_3);
  CHECK_FALSE(lowest_version(op, {TENSOR_FLOAT32, INT32, FLOAT32}, f32));  // mixed scalar types
  CHECK_FALSE(lowest_version(op, {TENSOR_FLOAT16, FLOAT32, FLOAT32}, {TENSOR_FLOAT16}));
  CHECK_FALSE(lowest_version(op, {TENSOR_QUANT8_ASYMM, FLOAT16, FLOAT16}, {TENSOR_QUANT8_ASYMM}));
  CHECK_FALSE(lowest_version(op, {TENSOR_FLOAT32, INT32}, f32));
  CHECK_FALSE(lowest_version(op, {TENSOR_FLOAT32, INT32, INT32, BOOL, BOOL, BOOL, BOOL}, f32));
  CHECK_FALSE(lowest_version(op, {TENSOR_FLOAT32, INT32, INT32, INT32}, f32));
}
