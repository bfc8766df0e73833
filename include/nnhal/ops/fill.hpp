#pragma once
/// \file
/// FILL (100): a tensor of the shape held in `dims` with every element set to `value`.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace fill {
inline constexpr std::array<Slot, 2> kInputs{{
    {"dims", Role::Parameter, kSlotValueRead},  // TENSOR_INT32 1-D: the output shape
    {"value", Role::Parameter},
}};
inline constexpr auto& kOutputs = lists::kSingleOutput;
/// The value scalar follows the output type: FLOAT16 -> F16, FLOAT32 -> F32, INT32 -> I32 (1.3).
inline constexpr std::array<Signature, 3> kSignatures{{
    sig(HalVersion::V1_3, {OperandType::TENSOR_INT32, OperandType::FLOAT16},
        {OperandType::TENSOR_FLOAT16}),
    sig(HalVersion::V1_3, {OperandType::TENSOR_INT32, OperandType::FLOAT32},
        {OperandType::TENSOR_FLOAT32}),
    sig(HalVersion::V1_3, {OperandType::TENSOR_INT32, OperandType::INT32},
        {OperandType::TENSOR_INT32}),
}};

/// `dims` has rank 1 when its rank is known (the reference checks it at execution).
inline Status validate(const OperationView& op, HalVersion&) {
  if (auto r = op.input_rank(0); r && *r != 1)
    return NNHAL_INVALID("input 0 (dims) has rank %zu, it must be 1", *r);
  return {};
}
}  // namespace fill

}  // namespace nnhal::ops

namespace nnhal {

/// FILL in the operation table.
template <>
struct Row<OperationType::FILL> {
  static constexpr OperationInfo info = make_row(OperationType::FILL, {
      .inputs = ops::fill::kInputs,
      .outputs = ops::fill::kOutputs,
      .signatures = ops::fill::kSignatures,
      .validate = &ops::fill::validate,
  });
};

}  // namespace nnhal
