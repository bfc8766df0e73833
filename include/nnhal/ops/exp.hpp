#pragma once
/// \file
/// EXP (49): elementwise natural exponential.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace exp {
inline constexpr auto& kInputs = lists::kUnaryInputs;
inline constexpr auto& kOutputs = lists::kSingleOutput;
inline constexpr auto kSignatures = lists::unary(lists::kFloat);
}  // namespace exp

}  // namespace nnhal::ops

namespace nnhal {

/// EXP in the operation table.
template <>
struct Row<OperationType::EXP> {
  static constexpr OperationInfo info = make_row(OperationType::EXP, {
      .inputs = ops::exp::kInputs,
      .outputs = ops::exp::kOutputs,
      .signatures = ops::exp::kSignatures,
  });
};

}  // namespace nnhal
