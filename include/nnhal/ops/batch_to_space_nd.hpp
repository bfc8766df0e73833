#pragma once
/// \file
/// BATCH_TO_SPACE_ND (29): moves blocks of the batch dimension into the two spatial dimensions of
/// a 4-D tensor; the output keeps the input's quantization.

#include <array>

#include "nnhal/ops/common/v1_0_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"
#include "nnhal/ops/common/value_rules.hpp"

namespace nnhal::ops {

namespace batch_to_space_nd {
inline constexpr std::array<Slot, 3> kInputs{{
    {"input", Role::Data},
    {"block_shape", Role::Parameter, kSlotValueRead},
    {"layout", Role::Layout, kSlotTrailing},
}};
inline constexpr auto& kOutputs = v1_0::kSingleOutput;
/// {T, TENSOR_INT32} -> {T}: F32, QA8 1.1; F16 1.2; QAS8 1.3; with the layout flag 1.2.
inline constexpr auto kSignatures = v1_0::with_trailing(
    for_each_type(v1_0::float_quant_types(HalVersion::V1_1),
                  [](OperandType t, HalVersion v) { return sig(v, {t, OperandType::TENSOR_INT32}, {t}); }),
    {OperandType::BOOL}, HalVersion::V1_2);
/// Input rank 4 where known; block_shape of shape [2] where known, constant entries >= 1.
inline Status validate(const OperationView& op, HalVersion&) {
  NNHAL_TRY(v1_0::check_rank(op, 0, 4));
  NNHAL_TRY(rules::check_shape(op, 1, "block_shape", {2u}));
  NNHAL_TRY(rules::check_values_range(op, 1, "block_shape", 1, INT32_MAX));
  return {};
}
}  // namespace batch_to_space_nd

}  // namespace nnhal::ops

namespace nnhal {

/// BATCH_TO_SPACE_ND in the operation table.
template <>
struct Row<OperationType::BATCH_TO_SPACE_ND> {
  static constexpr OperationInfo info = make_row(OperationType::BATCH_TO_SPACE_ND, {
      .inputs = ops::batch_to_space_nd::kInputs,
      .outputs = ops::batch_to_space_nd::kOutputs,
      .signatures = ops::batch_to_space_nd::kSignatures,
      .validate = &ops::batch_to_space_nd::validate,
  });
};

}  // namespace nnhal
