// Table rows of AVERAGE_POOL_2D, L2_POOL_2D and MAX_POOL_2D (operations.md 1, 12, 17): input
// counts 7/8/10/11, types and versions.
#include <doctest/doctest.h>

#include "nnhal/interface/kernel_set.hpp"
#include "ops/table_test_util.hpp"

using namespace nnhal;
using nnhal::test::concat;
using nnhal::test::lowest_version;
using nnhal::test::repeat;
using enum nnhal::OperandType;

namespace {
std::vector<OperandType> implicit_pool(OperandType t) { return concat({{t}, repeat(INT32, 6)}); }
std::vector<OperandType> explicit_pool(OperandType t) { return concat({{t}, repeat(INT32, 9)}); }
std::vector<OperandType> with_layout(std::vector<OperandType> v) { return concat({v, {BOOL}}); }
}  // namespace

TEST_CASE("pooling rows: slots and flags") {
  for (OperationType op : {OperationType::AVERAGE_POOL_2D, OperationType::L2_POOL_2D, OperationType::MAX_POOL_2D}) {
    const OperationInfo* info = find_operation(op);
    REQUIRE(info != nullptr);
    CHECK(info->since == HalVersion::V1_0);
    CHECK(info->inputs.size() == 11);  // explicit padding + layout
    CHECK(info->inputs[10].flags == kSlotTrailing);
    CHECK(info->outputs.size() == 1);
    CHECK(info->has(kOpAllowsZeroSized));
    CHECK_FALSE(info->has(kOpAllowsOmitted));
    CHECK((nnhal::kernel_table<nnhal::AllKernels>().find(info->type) != nullptr));
  }
}

TEST_CASE("AVERAGE_POOL_2D and MAX_POOL_2D: types, counts and versions") {
  for (OperationType op : {OperationType::AVERAGE_POOL_2D, OperationType::MAX_POOL_2D}) {
    CHECK(lowest_version(op, implicit_pool(TENSOR_FLOAT32), {TENSOR_FLOAT32}) == HalVersion::V1_0);
    CHECK(lowest_version(op, explicit_pool(TENSOR_FLOAT32), {TENSOR_FLOAT32}) == HalVersion::V1_0);
    CHECK(lowest_version(op, implicit_pool(TENSOR_QUANT8_ASYMM), {TENSOR_QUANT8_ASYMM}) == HalVersion::V1_0);
    CHECK(lowest_version(op, with_layout(implicit_pool(TENSOR_FLOAT32)), {TENSOR_FLOAT32}) == HalVersion::V1_2);
    CHECK(lowest_version(op, with_layout(explicit_pool(TENSOR_QUANT8_ASYMM)), {TENSOR_QUANT8_ASYMM}) ==
          HalVersion::V1_2);
    CHECK(lowest_version(op, implicit_pool(TENSOR_FLOAT16), {TENSOR_FLOAT16}) == HalVersion::V1_2);
    CHECK(lowest_version(op, explicit_pool(TENSOR_QUANT8_ASYMM_SIGNED), {TENSOR_QUANT8_ASYMM_SIGNED}) ==
          HalVersion::V1_3);
    CHECK(lowest_version(op, with_layout(explicit_pool(TENSOR_QUANT8_ASYMM_SIGNED)),
                         {TENSOR_QUANT8_ASYMM_SIGNED}) == HalVersion::V1_3);
    // 9 inputs, a non-BOOL layout, an unsupported type, a mismatched output: rejected.
    CHECK_FALSE(lowest_version(op, concat({{TENSOR_FLOAT32}, repeat(INT32, 8)}), {TENSOR_FLOAT32}));
    CHECK_FALSE(lowest_version(op, concat({implicit_pool(TENSOR_FLOAT32), {INT32}}), {TENSOR_FLOAT32}));
    CHECK_FALSE(lowest_version(op, implicit_pool(TENSOR_INT32), {TENSOR_INT32}));
    CHECK_FALSE(lowest_version(op, implicit_pool(TENSOR_FLOAT32), {TENSOR_FLOAT16}));
    CHECK_FALSE(lowest_version(op, implicit_pool(TENSOR_FLOAT32), {TENSOR_FLOAT32, TENSOR_FLOAT32}));
  }
}

TEST_CASE("L2_POOL_2D: float types only") {
  const auto op = OperationType::L2_POOL_2D;
  CHECK(lowest_version(op, implicit_pool(TENSOR_FLOAT32), {TENSOR_FLOAT32}) == HalVersion::V1_0);
  CHECK(lowest_version(op, with_layout(explicit_pool(TENSOR_FLOAT32)), {TENSOR_FLOAT32}) == HalVersion::V1_2);
  CHECK(lowest_version(op, explicit_pool(TENSOR_FLOAT16), {TENSOR_FLOAT16}) == HalVersion::V1_2);
  CHECK_FALSE(lowest_version(op, implicit_pool(TENSOR_QUANT8_ASYMM), {TENSOR_QUANT8_ASYMM}));
  CHECK_FALSE(lowest_version(op, implicit_pool(TENSOR_QUANT8_ASYMM_SIGNED), {TENSOR_QUANT8_ASYMM_SIGNED}));
}
