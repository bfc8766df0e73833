#pragma once
/// \file
/// NEG (67): elementwise negation.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace neg {
inline constexpr auto& kInputs = lists::kUnaryInputs;
inline constexpr auto& kOutputs = lists::kSingleOutput;
inline constexpr auto kSignatures = lists::unary(std::array<TypeVersion, 3>{{
    {OperandType::TENSOR_FLOAT16, HalVersion::V1_2},
    {OperandType::TENSOR_FLOAT32, HalVersion::V1_2},
    {OperandType::TENSOR_INT32, HalVersion::V1_2},
}});
}  // namespace neg

}  // namespace nnhal::ops

namespace nnhal {

/// NEG in the operation table.
template <>
struct Row<OperationType::NEG> {
  static constexpr OperationInfo info = make_row(OperationType::NEG, {
      .inputs = ops::neg::kInputs,
      .outputs = ops::neg::kOutputs,
      .signatures = ops::neg::kSignatures,
  });
};

}  // namespace nnhal
