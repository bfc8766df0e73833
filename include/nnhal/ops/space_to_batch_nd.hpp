#pragma once
/// \file
/// SPACE_TO_BATCH_ND (33): pads the two spatial dimensions of a 4-D tensor and moves spatial
/// blocks into the batch dimension; the output keeps the input's quantization and the padding is
/// the logical zero.

#include <array>

#include "nnhal/ops/common/v1_0_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"
#include "nnhal/ops/common/value_rules.hpp"

namespace nnhal::ops {

namespace space_to_batch_nd {
inline constexpr std::array<Slot, 4> kInputs{{
    {"input", Role::Data},
    {"block_shape", Role::Parameter, kSlotValueRead},
    {"paddings", Role::Parameter, kSlotValueRead},
    {"layout", Role::Layout, kSlotTrailing},
}};
inline constexpr auto& kOutputs = v1_0::kSingleOutput;
/// {T, TENSOR_INT32, TENSOR_INT32} -> {T}: F32, QA8 1.1; F16 1.2; QAS8 1.3; with the layout flag
/// 1.2.
inline constexpr auto kSignatures = v1_0::with_trailing(
    for_each_type(v1_0::float_quant_types(HalVersion::V1_1),
                  [](OperandType t, HalVersion v) {
                    return sig(v, {t, OperandType::TENSOR_INT32, OperandType::TENSOR_INT32}, {t});
                  }),
    {OperandType::BOOL}, HalVersion::V1_2);

/// QA8 with a non-zero zeroPoint needs 1.2. Input rank 4 where known; block_shape of shape [2]
/// where known, constant entries >= 1; paddings of shape [2, 2], constant entries >= 0.
inline Status validate(const OperationView& op, HalVersion& version) {
  v1_0::raise_if_qa8_zero_point(op, version);
  NNHAL_TRY(v1_0::check_rank(op, 0, 4));
  NNHAL_TRY(rules::check_shape(op, 1, "block_shape", {2u}));
  NNHAL_TRY(rules::check_values_range(op, 1, "block_shape", 1, INT32_MAX));
  NNHAL_TRY(rules::check_shape(op, 2, "paddings", {2u, 2u}));
  return rules::check_values_range(op, 2, "paddings", 0, INT32_MAX);
}
}  // namespace space_to_batch_nd

}  // namespace nnhal::ops

namespace nnhal {

/// SPACE_TO_BATCH_ND in the operation table.
template <>
struct Row<OperationType::SPACE_TO_BATCH_ND> {
  static constexpr OperationInfo info = make_row(OperationType::SPACE_TO_BATCH_ND, {
      .inputs = ops::space_to_batch_nd::kInputs,
      .outputs = ops::space_to_batch_nd::kOutputs,
      .signatures = ops::space_to_batch_nd::kSignatures,
      .validate = &ops::space_to_batch_nd::validate,
  });
};

}  // namespace nnhal
