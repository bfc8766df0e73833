// CAST table row: every conversion among F16/F32/I32/QA8 at 1.2, identity casts of the other
// types at 1.3, and the declared-shape check.
#include <doctest/doctest.h>

#include "nnhal/ops/registry.hpp"
#include "ops/table_test_util.hpp"

using nnhal::HalVersion;
using nnhal::OperandType;
using nnhal::OperationType;
using nnhal::test::lowest_version;
using nnhal::test::OneOpModel;

TEST_CASE("CAST table: conversions and identity casts") {
  const auto& info = nnhal::operation_info<OperationType::CAST>();
  CHECK(info.since == HalVersion::V1_2);
  CHECK(info.inputs.size() == 1);
  CHECK(info.outputs.size() == 1);
  CHECK(nnhal::kernel_table<nnhal::AllKernels>().find(info.type) != nullptr);
  const OperandType convertible[] = {OperandType::TENSOR_FLOAT16, OperandType::TENSOR_FLOAT32,
                                     OperandType::TENSOR_INT32, OperandType::TENSOR_QUANT8_ASYMM};
  for (OperandType t : convertible)
    for (OperandType u : convertible) CHECK(lowest_version(OperationType::CAST, {t}, {u}) == HalVersion::V1_2);
  const OperandType identity_only[] = {OperandType::TENSOR_BOOL8, OperandType::TENSOR_QUANT16_ASYMM,
                                       OperandType::TENSOR_QUANT16_SYMM,
                                       OperandType::TENSOR_QUANT8_ASYMM_SIGNED,
                                       OperandType::TENSOR_QUANT8_SYMM};
  for (OperandType t : identity_only) {
    CHECK(lowest_version(OperationType::CAST, {t}, {t}) == HalVersion::V1_3);
    for (OperandType u : convertible) {
      CHECK_FALSE(lowest_version(OperationType::CAST, {t}, {u}));
      CHECK_FALSE(lowest_version(OperationType::CAST, {u}, {t}));
    }
  }
  CHECK_FALSE(lowest_version(OperationType::CAST, {OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL},
                             {OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL}));
  CHECK_FALSE(lowest_version(OperationType::CAST, {OperandType::FLOAT32}, {OperandType::INT32}));
}

TEST_CASE("CAST validate: output shape equals the input shape when both are known") {
  auto model = [](std::vector<std::uint32_t> in, std::vector<std::uint32_t> out) {
    OneOpModel m(OperationType::CAST);
    m.in(OperandType::TENSOR_FLOAT32, std::move(in));
    m.out(OperandType::TENSOR_INT32, std::move(out));
    return m;
  };
  CHECK(*model({2, 3}, {2, 3}).check() == HalVersion::V1_2);
  CHECK(model({2, 3}, {}).check());      // output rank unknown
  CHECK(model({}, {2, 3}).check());      // input rank unknown
  CHECK(model({2, 3}, {2, 0}).check());  // output size unknown
  CHECK(model({2, 3}, {7, 0, 1}).check());
  CHECK_FALSE(model({2, 3}, {3, 2}).check());
  CHECK_FALSE(model({2, 3}, {2, 3, 1}).check());
  // Reference quirk: the declared lists are compared as they are, so an unknown input size
  // against a known output size is rejected.
  CHECK_FALSE(model({0, 3}, {2, 3}).check());
}
