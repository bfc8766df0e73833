// RESHAPE table row: signatures and versions (no TENSOR_INT32 data: FL6), declared input rank.
#include <doctest/doctest.h>

#include "nnhal/ops/registry.hpp"
#include "ops/table_test_util.hpp"

using nnhal::HalVersion;
using nnhal::OperandType;
using nnhal::OperationType;
using nnhal::test::lowest_version;
using nnhal::test::OneOpModel;

TEST_CASE("RESHAPE table: slots, flags, signatures") {
  const auto& info = nnhal::operation_info<OperationType::RESHAPE>();
  CHECK(info.since == HalVersion::V1_0);
  CHECK(info.inputs.size() == 2);
  CHECK(info.outputs.size() == 1);
  CHECK_FALSE(info.has(nnhal::kOpAllowsZeroSized));
  REQUIRE(nnhal::kernel_table<nnhal::AllKernels>().find(info.type) != nullptr);
  CHECK(info.value_inputs == 2u);
  constexpr auto I32 = OperandType::TENSOR_INT32;
  for (auto [t, v] : {std::pair{OperandType::TENSOR_FLOAT32, HalVersion::V1_0},
                      std::pair{OperandType::TENSOR_QUANT8_ASYMM, HalVersion::V1_0},
                      std::pair{OperandType::TENSOR_FLOAT16, HalVersion::V1_2},
                      std::pair{OperandType::TENSOR_QUANT8_ASYMM_SIGNED, HalVersion::V1_3}})
    CHECK(lowest_version(OperationType::RESHAPE, {t, I32}, {t}) == v);
  CHECK_FALSE(lowest_version(OperationType::RESHAPE, {I32, I32}, {I32}));  // feature level 6
  CHECK_FALSE(lowest_version(OperationType::RESHAPE, {OperandType::TENSOR_BOOL8, I32}, {OperandType::TENSOR_BOOL8}));
  CHECK_FALSE(lowest_version(OperationType::RESHAPE,
                             {OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT32},
                             {OperandType::TENSOR_FLOAT32}));
  CHECK_FALSE(lowest_version(OperationType::RESHAPE, {OperandType::TENSOR_FLOAT32, I32},
                             {OperandType::TENSOR_FLOAT16}));
}

TEST_CASE("RESHAPE validate: declared input rank at most 4") {
  auto model = [](std::vector<std::uint32_t> dims) {
    OneOpModel m(OperationType::RESHAPE);
    m.in(OperandType::TENSOR_FLOAT32, std::move(dims));
    m.in(OperandType::TENSOR_INT32, {2});
    m.out(OperandType::TENSOR_FLOAT32);
    return m;
  };
  CHECK(*model({1, 2, 3, 4}).check() == HalVersion::V1_0);
  CHECK(model({}).check());
  CHECK(model({0, 0, 0, 0}).check());
  CHECK_FALSE(model({1, 1, 2, 3, 4}).check());
  CHECK_FALSE(model({0, 0, 0, 0, 0}).check());  // the declared count, even with unknown sizes
}
