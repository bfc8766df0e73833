// Table rows of the comparisons (EQUAL ... NOT_EQUAL) and LOGICAL_AND / LOGICAL_OR /
// LOGICAL_NOT: signatures and versions from operations.md.
#include <doctest/doctest.h>

#include "nnhal/ops/registry.hpp"
#include "ops/table_test_util.hpp"

using nnhal::HalVersion;
using nnhal::OperandType;
using nnhal::OperationType;
using nnhal::test::lowest_version;
using nnhal::test::OneOpModel;

TEST_CASE("comparison table rows: input types, BOOL8 output, versions") {
  constexpr auto B8 = OperandType::TENSOR_BOOL8;
  for (OperationType op : {OperationType::EQUAL, OperationType::GREATER, OperationType::GREATER_EQUAL,
                           OperationType::LESS, OperationType::LESS_EQUAL, OperationType::NOT_EQUAL}) {
    const auto* info = nnhal::find_operation(op);
    REQUIRE(info != nullptr);
    CAPTURE(info->name);
    CHECK(info->since == HalVersion::V1_2);
    CHECK(info->inputs.size() == 2);
    CHECK(info->outputs.size() == 1);
    CHECK(nnhal::kernel_table<nnhal::AllKernels>().find(info->type) != nullptr);
    CHECK_FALSE(info->has(nnhal::kOpAllowsZeroSized));
    for (OperandType t : {B8, OperandType::TENSOR_FLOAT16, OperandType::TENSOR_FLOAT32,
                          OperandType::TENSOR_INT32, OperandType::TENSOR_QUANT8_ASYMM})
      CHECK(lowest_version(op, {t, t}, {B8}) == HalVersion::V1_2);
    CHECK(lowest_version(op, {OperandType::TENSOR_QUANT8_ASYMM_SIGNED, OperandType::TENSOR_QUANT8_ASYMM_SIGNED},
                         {B8}) == HalVersion::V1_3);
    CHECK_FALSE(lowest_version(op, {OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT32},
                               {OperandType::TENSOR_FLOAT32}));
    CHECK_FALSE(lowest_version(op, {OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16}, {B8}));
    CHECK_FALSE(lowest_version(op, {OperandType::TENSOR_QUANT16_ASYMM, OperandType::TENSOR_QUANT16_ASYMM}, {B8}));
    CHECK_FALSE(lowest_version(op, {OperandType::TENSOR_FLOAT32}, {B8}));

    OneOpModel m(op);
    m.in(OperandType::TENSOR_QUANT8_ASYMM, {2, 1}).scale = 0.5f;
    m.in(OperandType::TENSOR_QUANT8_ASYMM, {3}).scale = 0.25f;  // scales may differ
    m.out(B8, {2, 3});
    CHECK(*m.check() == HalVersion::V1_2);
  }
}

TEST_CASE("logical table rows: BOOL8 only, version 1.2") {
  constexpr auto B8 = OperandType::TENSOR_BOOL8;
  for (OperationType op : {OperationType::LOGICAL_AND, OperationType::LOGICAL_OR}) {
    const auto* info = nnhal::find_operation(op);
    REQUIRE(info != nullptr);
    CHECK(info->inputs.size() == 2);
    CHECK(nnhal::kernel_table<nnhal::AllKernels>().find(info->type) != nullptr);
    CHECK(lowest_version(op, {B8, B8}, {B8}) == HalVersion::V1_2);
    CHECK_FALSE(lowest_version(op, {OperandType::TENSOR_INT32, OperandType::TENSOR_INT32},
                               {OperandType::TENSOR_INT32}));
    CHECK_FALSE(lowest_version(op, {B8}, {B8}));
  }
  const auto& not_info = nnhal::operation_info<OperationType::LOGICAL_NOT>();
  CHECK(not_info.inputs.size() == 1);
  CHECK(not_info.since == HalVersion::V1_2);
  CHECK(lowest_version(OperationType::LOGICAL_NOT, {B8}, {B8}) == HalVersion::V1_2);
  CHECK_FALSE(lowest_version(OperationType::LOGICAL_NOT, {B8, B8}, {B8}));
  CHECK_FALSE(lowest_version(OperationType::LOGICAL_NOT, {OperandType::TENSOR_FLOAT32},
                             {OperandType::TENSOR_FLOAT32}));
}
