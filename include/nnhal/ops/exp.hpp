#pragma once
/// \file
/// EXP (49): elementwise natural exponential.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

namespace exp {
inline constexpr auto& kInputs = lists::kUnaryInputs;
inline constexpr auto& kOutputs = lists::kSingleOutput;
inline constexpr auto kSignatures = lists::unary(lists::kFloat);
}  // namespace exp

/// EXP in the operation table.
struct Exp : OperationDescriptor<OperationType::EXP> {
  static constexpr OperationInfo info{OperationType::EXP, "EXP",         HalVersion::V1_2,
                                      exp::kInputs,       exp::kOutputs, exp::kSignatures};
};

}  // namespace nnhal::ops
