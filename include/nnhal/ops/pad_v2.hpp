#pragma once
/// \file
/// PAD_V2 (69): pads with a given value; `dim[i] + before[i] + after[i]`; out q = in.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace pad_v2 {
inline constexpr std::array<Slot, 3> kInputs{{
    {"input", Role::Data},
    {"paddings", Role::Parameter},  // TENSOR_INT32 [rank, 2] (before, after), values >= 0
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

/// Input rank <= 4. The reference (validatePadV2) checks the declared dimension count, so an
/// operand of unknown rank passes here and is checked at execution.
inline Status validate(const OperationView& op, HalVersion&) {
  return lists::check_max_rank(op, 0, 4);
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
