#pragma once
/// \file
/// ABS (38): elementwise absolute value (INT32 since 1.3).

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace abs {
inline constexpr auto& kInputs = lists::kUnaryInputs;
inline constexpr auto& kOutputs = lists::kSingleOutput;
inline constexpr auto kSignatures = lists::unary(std::array<TypeVersion, 3>{{
    {OperandType::TENSOR_FLOAT16, HalVersion::V1_2},
    {OperandType::TENSOR_FLOAT32, HalVersion::V1_2},
    {OperandType::TENSOR_INT32, HalVersion::V1_3},
}});
}  // namespace abs

}  // namespace nnhal::ops

namespace nnhal {

/// ABS in the operation table.
template <>
struct Row<OperationType::ABS> {
  static constexpr OperationInfo info = make_row(OperationType::ABS, {
      .inputs = ops::abs::kInputs,
      .outputs = ops::abs::kOutputs,
      .signatures = ops::abs::kSignatures,
  });
};

}  // namespace nnhal
