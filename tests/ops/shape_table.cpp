// Table rows of the data-movement operations of HAL 1.0/1.1: CONCATENATION, DEPTH_TO_SPACE,
// SPACE_TO_DEPTH, BATCH_TO_SPACE_ND, SPACE_TO_BATCH_ND, PAD, MEAN, SQUEEZE, STRIDED_SLICE,
// TRANSPOSE (operations.md 2, 5, 26, 29, 31-35, 37).
#include <doctest/doctest.h>

#include "ops/table_test_util.hpp"

using namespace nnhal;
using nnhal::test::concat;
using nnhal::test::lowest_version;
using nnhal::test::OneOpModel;
using nnhal::test::repeat;
using enum nnhal::OperandType;

TEST_CASE("CONCATENATION: n >= 1 tensors and an axis") {
  const auto op = OperationType::CONCATENATION;
  const OperationInfo* info = find_operation(op);
  REQUIRE(info != nullptr);
  CHECK(info->inputs[0].flags == kSlotRepeated);
  CHECK(info->has(kOpAllowsZeroSized));
  CHECK(lowest_version(op, {TENSOR_FLOAT32, INT32}, {TENSOR_FLOAT32}) == HalVersion::V1_0);
  CHECK(lowest_version(op, concat({repeat(TENSOR_FLOAT32, 5), {INT32}}), {TENSOR_FLOAT32}) == HalVersion::V1_0);
  CHECK(lowest_version(op, {TENSOR_QUANT8_ASYMM, TENSOR_QUANT8_ASYMM, INT32}, {TENSOR_QUANT8_ASYMM}) ==
        HalVersion::V1_0);
  CHECK(lowest_version(op, {TENSOR_FLOAT16, TENSOR_FLOAT16, INT32}, {TENSOR_FLOAT16}) == HalVersion::V1_2);
  CHECK(lowest_version(op, {TENSOR_QUANT8_ASYMM_SIGNED, INT32}, {TENSOR_QUANT8_ASYMM_SIGNED}) == HalVersion::V1_3);
  CHECK_FALSE(lowest_version(op, {INT32}, {TENSOR_FLOAT32}));                                  // no tensor
  CHECK_FALSE(lowest_version(op, {TENSOR_FLOAT32, TENSOR_FLOAT16, INT32}, {TENSOR_FLOAT32}));  // mixed
  CHECK_FALSE(lowest_version(op, {TENSOR_FLOAT32, TENSOR_FLOAT32}, {TENSOR_FLOAT32}));         // no axis
  CHECK_FALSE(lowest_version(op, {TENSOR_INT32, INT32}, {TENSOR_INT32}));
}

TEST_CASE("CONCATENATION validate: QA8 requantization needs 1.2, ranks <= 4") {
  OneOpModel m(OperationType::CONCATENATION);
  for (int i = 0; i < 2; ++i) {
    Operand& in = m.in(TENSOR_QUANT8_ASYMM, {1, 2});
    in.scale = 0.5f;
    in.zeroPoint = 3;
  }
  m.in(INT32);
  Operand& out = m.out(TENSOR_QUANT8_ASYMM, {2, 2});
  out.scale = 0.5f;
  out.zeroPoint = 3;
  auto v = m.check();
  REQUIRE(v);
  CHECK(*v == HalVersion::V1_0);
  m.input(1).zeroPoint = 4;
  v = m.check();
  REQUIRE(v);
  CHECK(*v == HalVersion::V1_2);
  m.input(1).dimensions = {1, 1, 1, 1, 2};
  CHECK_FALSE(m.check());
}

TEST_CASE("DEPTH_TO_SPACE / SPACE_TO_DEPTH: optional layout") {
  for (OperationType op : {OperationType::DEPTH_TO_SPACE, OperationType::SPACE_TO_DEPTH}) {
    const OperationInfo* info = find_operation(op);
    REQUIRE(info != nullptr);
    CHECK(info->inputs.size() == 3);
    CHECK(info->inputs[2].flags == kSlotTrailing);
    CHECK_FALSE(info->has(kOpAllowsZeroSized));
    CHECK(lowest_version(op, {TENSOR_FLOAT32, INT32}, {TENSOR_FLOAT32}) == HalVersion::V1_0);
    CHECK(lowest_version(op, {TENSOR_QUANT8_ASYMM, INT32}, {TENSOR_QUANT8_ASYMM}) == HalVersion::V1_0);
    CHECK(lowest_version(op, {TENSOR_FLOAT32, INT32, BOOL}, {TENSOR_FLOAT32}) == HalVersion::V1_2);
    CHECK(lowest_version(op, {TENSOR_FLOAT16, INT32}, {TENSOR_FLOAT16}) == HalVersion::V1_2);
    CHECK(lowest_version(op, {TENSOR_QUANT8_ASYMM_SIGNED, INT32, BOOL}, {TENSOR_QUANT8_ASYMM_SIGNED}) ==
          HalVersion::V1_3);
    CHECK_FALSE(lowest_version(op, {TENSOR_FLOAT32, TENSOR_INT32}, {TENSOR_FLOAT32}));
    CHECK_FALSE(lowest_version(op, {TENSOR_FLOAT32, INT32, INT32}, {TENSOR_FLOAT32}));
    CHECK_FALSE(lowest_version(op, {TENSOR_FLOAT32}, {TENSOR_FLOAT32}));
  }
}

TEST_CASE("BATCH_TO_SPACE_ND / SPACE_TO_BATCH_ND: 1.1, optional layout") {
  const auto b2s = OperationType::BATCH_TO_SPACE_ND;
  const auto s2b = OperationType::SPACE_TO_BATCH_ND;
  CHECK(find_operation(b2s)->since == HalVersion::V1_1);
  CHECK(find_operation(s2b)->since == HalVersion::V1_1);
  CHECK(lowest_version(b2s, {TENSOR_FLOAT32, TENSOR_INT32}, {TENSOR_FLOAT32}) == HalVersion::V1_1);
  CHECK(lowest_version(b2s, {TENSOR_QUANT8_ASYMM, TENSOR_INT32, BOOL}, {TENSOR_QUANT8_ASYMM}) == HalVersion::V1_2);
  CHECK(lowest_version(b2s, {TENSOR_QUANT8_ASYMM_SIGNED, TENSOR_INT32}, {TENSOR_QUANT8_ASYMM_SIGNED}) ==
        HalVersion::V1_3);
  CHECK_FALSE(lowest_version(b2s, {TENSOR_FLOAT32, INT32}, {TENSOR_FLOAT32}));
  CHECK(lowest_version(s2b, {TENSOR_FLOAT32, TENSOR_INT32, TENSOR_INT32}, {TENSOR_FLOAT32}) == HalVersion::V1_1);
  CHECK(lowest_version(s2b, {TENSOR_FLOAT16, TENSOR_INT32, TENSOR_INT32, BOOL}, {TENSOR_FLOAT16}) ==
        HalVersion::V1_2);
  CHECK_FALSE(lowest_version(s2b, {TENSOR_FLOAT32, TENSOR_INT32}, {TENSOR_FLOAT32}));
}

TEST_CASE("PAD / SPACE_TO_BATCH_ND validate: QA8 zeroPoint != 0 needs 1.2") {
  OneOpModel pad(OperationType::PAD);
  pad.in(TENSOR_QUANT8_ASYMM, {1, 2, 2, 1}).scale = 1.0f;
  pad.in(TENSOR_INT32, {4, 2});
  pad.out(TENSOR_QUANT8_ASYMM).scale = 1.0f;
  auto v = pad.check();
  REQUIRE(v);
  CHECK(*v == HalVersion::V1_1);
  pad.input(0).zeroPoint = 128;
  v = pad.check();
  REQUIRE(v);
  CHECK(*v == HalVersion::V1_2);
  pad.input(0).dimensions = {1, 1, 2, 2, 1};
  CHECK_FALSE(pad.check());  // PAD rank <= 4

  OneOpModel s2b(OperationType::SPACE_TO_BATCH_ND);
  s2b.in(TENSOR_QUANT8_ASYMM, {1, 2, 2, 1}).zeroPoint = 1;
  s2b.in(TENSOR_INT32, {2});
  s2b.in(TENSOR_INT32, {2, 2});
  s2b.out(TENSOR_QUANT8_ASYMM);
  v = s2b.check();
  REQUIRE(v);
  CHECK(*v == HalVersion::V1_2);
}

TEST_CASE("PAD, MEAN, SQUEEZE, STRIDED_SLICE, TRANSPOSE: types and versions") {
  CHECK(lowest_version(OperationType::PAD, {TENSOR_FLOAT32, TENSOR_INT32}, {TENSOR_FLOAT32}) == HalVersion::V1_1);
  CHECK(lowest_version(OperationType::PAD, {TENSOR_FLOAT16, TENSOR_INT32}, {TENSOR_FLOAT16}) == HalVersion::V1_2);
  CHECK_FALSE(lowest_version(OperationType::PAD, {TENSOR_FLOAT32, TENSOR_INT32, FLOAT32}, {TENSOR_FLOAT32}));
  CHECK(lowest_version(OperationType::MEAN, {TENSOR_FLOAT32, TENSOR_INT32, INT32}, {TENSOR_FLOAT32}) ==
        HalVersion::V1_1);
  CHECK(lowest_version(OperationType::MEAN, {TENSOR_QUANT8_ASYMM_SIGNED, TENSOR_INT32, INT32},
                       {TENSOR_QUANT8_ASYMM_SIGNED}) == HalVersion::V1_3);
  CHECK_FALSE(lowest_version(OperationType::MEAN, {TENSOR_FLOAT32, TENSOR_INT32, BOOL}, {TENSOR_FLOAT32}));
  CHECK(lowest_version(OperationType::SQUEEZE, {TENSOR_QUANT8_ASYMM, TENSOR_INT32}, {TENSOR_QUANT8_ASYMM}) ==
        HalVersion::V1_1);
  CHECK_FALSE(lowest_version(OperationType::SQUEEZE, {TENSOR_FLOAT32}, {TENSOR_FLOAT32}));
  const auto ss = concat({{TENSOR_FLOAT16}, repeat(TENSOR_INT32, 3), repeat(INT32, 3)});
  CHECK(lowest_version(OperationType::STRIDED_SLICE, ss, {TENSOR_FLOAT16}) == HalVersion::V1_2);
  CHECK_FALSE(lowest_version(OperationType::STRIDED_SLICE, concat({{TENSOR_FLOAT16}, repeat(TENSOR_INT32, 3)}),
                             {TENSOR_FLOAT16}));
  CHECK(lowest_version(OperationType::TRANSPOSE, {TENSOR_FLOAT32, TENSOR_INT32}, {TENSOR_FLOAT32}) ==
        HalVersion::V1_1);
  CHECK_FALSE(lowest_version(OperationType::TRANSPOSE, {TENSOR_INT32, TENSOR_INT32}, {TENSOR_INT32}));
}

TEST_CASE("SQUEEZE and TRANSPOSE: optional-by-value second input; flags") {
  for (OperationType op : {OperationType::SQUEEZE, OperationType::TRANSPOSE}) {
    const OperationInfo* info = find_operation(op);
    REQUIRE(info != nullptr);
    CHECK(info->has(kOpAllowsOmitted));
    CHECK(info->inputs[1].flags == (kSlotOmittable | kSlotValueRead));  // shape inference reads its value
  }
  CHECK(find_operation(OperationType::TRANSPOSE)->has(kOpAllowsZeroSized));
  CHECK_FALSE(find_operation(OperationType::SQUEEZE)->has(kOpAllowsZeroSized));
  CHECK_FALSE(find_operation(OperationType::PAD)->has(kOpAllowsOmitted));
}

TEST_CASE("MEAN, SQUEEZE, STRIDED_SLICE, TRANSPOSE validate: rank <= 4") {
  struct Case {
    OperationType op;
    std::vector<OperandType> params;
  };
  const Case cases[] = {
      {OperationType::MEAN, {TENSOR_INT32, INT32}},
      {OperationType::SQUEEZE, {TENSOR_INT32}},
      {OperationType::STRIDED_SLICE, {TENSOR_INT32, TENSOR_INT32, TENSOR_INT32, INT32, INT32, INT32}},
      {OperationType::TRANSPOSE, {TENSOR_INT32}},
  };
  for (const Case& c : cases) {
    OneOpModel m(c.op);
    m.in(TENSOR_FLOAT32, {1, 2, 3, 4});
    m.ins(c.params);
    m.out(TENSOR_FLOAT32);
    CHECK(m.check());
    m.input(0).dimensions = {1, 2, 3, 4, 5};
    CHECK_FALSE(m.check());
  }
}
