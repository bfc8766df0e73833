// FULLY_CONNECTED table row: signatures and versions from operations.md, the 1.0 output scale
// rule, and the shape checks done at validation when ranks are known.
#include <doctest/doctest.h>

#include "nnhal/ops/registry.hpp"
#include "ops/table_test_util.hpp"

using nnhal::HalVersion;
using nnhal::OperandType;
using nnhal::OperationType;
using nnhal::test::lowest_version;
using nnhal::test::OneOpModel;

namespace {
constexpr auto F32 = OperandType::TENSOR_FLOAT32, F16 = OperandType::TENSOR_FLOAT16,
               I32 = OperandType::TENSOR_INT32, QA8 = OperandType::TENSOR_QUANT8_ASYMM,
               QAS8 = OperandType::TENSOR_QUANT8_ASYMM_SIGNED, i32 = OperandType::INT32;

/// A FULLY_CONNECTED model of type t with the given declared shapes and quantization.
OneOpModel fc_model(OperandType t, std::vector<std::uint32_t> in, std::vector<std::uint32_t> w,
                    std::vector<std::uint32_t> bias, float in_scale = 0.0f, float w_scale = 0.0f,
                    float out_scale = 0.0f) {
  const bool q = t == QA8 || t == QAS8;
  OneOpModel m(OperationType::FULLY_CONNECTED);
  m.in(t, std::move(in)).scale = in_scale;
  m.in(t, std::move(w)).scale = w_scale;
  m.in(q ? I32 : t, std::move(bias)).scale = in_scale * w_scale;
  m.in(i32);
  m.out(t).scale = out_scale;
  return m;
}
}  // namespace

TEST_CASE("FULLY_CONNECTED table: slots, flags, signatures") {
  const auto& info = nnhal::operation_info<OperationType::FULLY_CONNECTED>();
  CHECK(info.name == "FULLY_CONNECTED");
  CHECK(info.since == HalVersion::V1_0);
  CHECK(info.inputs.size() == 4);
  CHECK(info.outputs.size() == 1);
  CHECK(info.has(nnhal::kOpAllowsZeroSized));
  CHECK(nnhal::kernel_table<nnhal::AllKernels>().find(info.type) != nullptr);
  CHECK(lowest_version(OperationType::FULLY_CONNECTED, {F32, F32, F32, i32}, {F32}) == HalVersion::V1_0);
  CHECK(lowest_version(OperationType::FULLY_CONNECTED, {QA8, QA8, I32, i32}, {QA8}) == HalVersion::V1_0);
  CHECK(lowest_version(OperationType::FULLY_CONNECTED, {F16, F16, F16, i32}, {F16}) == HalVersion::V1_2);
  CHECK(lowest_version(OperationType::FULLY_CONNECTED, {QAS8, QAS8, I32, i32}, {QAS8}) == HalVersion::V1_3);
  // Rejected combinations.
  CHECK_FALSE(lowest_version(OperationType::FULLY_CONNECTED, {QA8, QA8, QA8, i32}, {QA8}));
  CHECK_FALSE(lowest_version(OperationType::FULLY_CONNECTED, {F32, F16, F32, i32}, {F32}));
  CHECK_FALSE(lowest_version(OperationType::FULLY_CONNECTED, {QAS8, QA8, I32, i32}, {QAS8}));
  CHECK_FALSE(lowest_version(OperationType::FULLY_CONNECTED, {F32, F32, F32, i32}, {F16}));
  CHECK_FALSE(lowest_version(OperationType::FULLY_CONNECTED, {F32, F32, F32}, {F32}));
  CHECK_FALSE(lowest_version(OperationType::FULLY_CONNECTED, {I32, I32, I32, i32}, {I32}));
}

TEST_CASE("FULLY_CONNECTED validate: QA8 output scale rule of 1.0") {
  // output_scale > input_scale * weights_scale: 1.0; otherwise 1.2.
  CHECK(*fc_model(QA8, {2, 4}, {3, 4}, {3}, 0.5f, 0.5f, 0.3f).check() == HalVersion::V1_0);
  CHECK(*fc_model(QA8, {2, 4}, {3, 4}, {3}, 0.5f, 0.5f, 0.25f).check() == HalVersion::V1_2);
  CHECK(*fc_model(QA8, {2, 4}, {3, 4}, {3}, 0.5f, 0.5f, 0.1f).check() == HalVersion::V1_2);
  // The rule does not concern the other types.
  CHECK(*fc_model(QAS8, {2, 4}, {3, 4}, {3}, 0.5f, 0.5f, 0.1f).check() == HalVersion::V1_3);
  CHECK(*fc_model(F32, {2, 4}, {3, 4}, {3}).check() == HalVersion::V1_0);
}

TEST_CASE("FULLY_CONNECTED validate: shapes when every rank is known") {
  CHECK(fc_model(F32, {2, 2, 2}, {3, 4}, {3}).check());
  CHECK(fc_model(F32, {1, 2, 2, 4}, {3, 4}, {3}).check());
  CHECK(fc_model(F32, {0, 4}, {3, 4}, {3}).check());   // unknown batch
  CHECK(fc_model(F32, {2, 4}, {0, 4}, {3}).check());   // unknown num_units: bias not compared
  CHECK(fc_model(F32, {}, {3, 4, 1}, {3}).check());    // unknown input rank: nothing checked
  CHECK_FALSE(fc_model(F32, {8}, {3, 4}, {3}).check());              // input rank 1
  CHECK_FALSE(fc_model(F32, {1, 1, 2, 2, 2}, {3, 4}, {3}).check());  // input rank 5
  CHECK_FALSE(fc_model(F32, {2, 4}, {3, 4, 1}, {3}).check());        // weights rank 3
  CHECK_FALSE(fc_model(F32, {2, 4}, {3, 4}, {1, 3}).check());        // bias rank 2
  CHECK_FALSE(fc_model(F32, {2, 5}, {3, 4}, {3}).check());           // 10 % 4 != 0
  CHECK_FALSE(fc_model(F32, {2, 4}, {3, 4}, {2}).check());           // bias length 2 != 3
  const auto e = fc_model(F32, {2, 4}, {3, 4}, {2}).check();
  CHECK(e.error().status() == nnhal::ErrorStatus::INVALID_ARGUMENT);
}
