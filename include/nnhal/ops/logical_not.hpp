#pragma once
/// \file
/// LOGICAL_NOT (62): elementwise NOT of a TENSOR_BOOL8 (non-zero = true); output 0 or 1.

#include "nnhal/ops/common/boolean_ops.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace logical_not {
inline constexpr const auto& kSignatures = boolean_ops::kLogicalNotSignatures;

}  // namespace logical_not

}  // namespace nnhal::ops

namespace nnhal {

/// LOGICAL_NOT in the operation table.
template <>
struct Row<OperationType::LOGICAL_NOT> {
  static constexpr OperationInfo info = make_row(OperationType::LOGICAL_NOT, {
      .inputs = ops::boolean_ops::kUnaryInputs,
      .outputs = ops::boolean_ops::kOutputs,
      .signatures = ops::logical_not::kSignatures,
  });
};

}  // namespace nnhal
