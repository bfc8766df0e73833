#pragma once
/// \file
/// NEG (67): elementwise negation.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/ops/operation_info.hpp"

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

/// NEG in the operation table.
struct Neg : OperationDescriptor<OperationType::NEG> {
  static constexpr OperationInfo info{OperationType::NEG, "NEG",         HalVersion::V1_2,
                                      neg::kInputs,       neg::kOutputs, neg::kSignatures};
};

}  // namespace nnhal::ops
