#pragma once
/// \file
/// PAD_V2 (69): pads with a given value; `dim[i] + before[i] + after[i]`; out q = in.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"
#include "nnhal/ops/common/value_rules.hpp"

namespace nnhal::ops {

namespace pad_v2 {
inline constexpr std::array<Slot, 3> kInputs{{
    {"input", Role::Data},
    {"paddings", Role::Parameter, kSlotValueRead},  // TENSOR_INT32 [rank, 2] (before, after), values >= 0
    {"pad_value", Role::Parameter},
}};
inline constexpr auto& kOutputs = lists::kSingleOutput;
/// The pad value is FLOAT32 for F32, FLOAT16 for F16, and an INT32 quantized value (input's
/// scale and zeroPoint) for QA8 / QAS8.
inline constexpr auto kSignatures =
    for_each_type(lists::kFloatQuant, [](OperandType t, HalVersion v) {
      const OperandType value = lists::is_quant8(t) ? OperandType::INT32 : float_scalar_for(t);
      return sig(v, {t, OperandType::TENSOR_INT32, value}, {t});
  });

/// Paddings of shape [rank, 2] where known; constant paddings >= 0.
inline Status check_paddings(const OperationView& op) {
  const auto rank = op.input_rank(0);
  NNHAL_TRY(rules::check_shape(op, 1, "paddings", {rank ? static_cast<std::uint32_t>(*rank) : 0u, 2u}));
  return rules::check_values_range(op, 1, "paddings", 0, INT32_MAX);
}

/// Input rank <= 4. The reference (validatePadV2) checks the declared dimension count, so an
/// operand of unknown rank passes here and is checked at execution. Paddings of shape [rank, 2]
/// where known, constant paddings >= 0; a constant quantized pad value inside the storage range
/// of the input type (nnhal rejects what the reference would wrap with a static_cast).
inline Status validate(const OperationView& op, HalVersion&) {
  NNHAL_TRY(lists::check_max_rank(op, 0, 4));
  NNHAL_TRY(check_paddings(op));
  if (op.input(0).type == OperandType::TENSOR_QUANT8_ASYMM) return rules::check_scalar_range(op, 2, "pad_value", 0, 255);
  if (op.input(0).type == OperandType::TENSOR_QUANT8_ASYMM_SIGNED)
    return rules::check_scalar_range(op, 2, "pad_value", -128, 127);
  return {};
}
}  // namespace pad_v2

}  // namespace nnhal::ops

namespace nnhal {

/// PAD_V2 in the operation table.
template <>
struct Row<OperationType::PAD_V2> {
  static constexpr OperationInfo info = make_row(OperationType::PAD_V2, {
      .inputs = ops::pad_v2::kInputs,
      .outputs = ops::pad_v2::kOutputs,
      .signatures = ops::pad_v2::kSignatures,
      .validate = &ops::pad_v2::validate,
  });
};

}  // namespace nnhal
