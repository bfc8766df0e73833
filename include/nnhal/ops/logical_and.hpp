#pragma once
/// \file
/// LOGICAL_AND (61): elementwise AND of two TENSOR_BOOL8 with broadcasting (non-zero = true); output 0 or 1.

#include "nnhal/ops/common/boolean_ops.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace logical_and {
inline constexpr const auto& kSignatures = boolean_ops::kLogicalBinarySignatures;

}  // namespace logical_and

}  // namespace nnhal::ops

namespace nnhal {

/// LOGICAL_AND in the operation table.
template <>
struct Row<OperationType::LOGICAL_AND> {
  static constexpr OperationInfo info = make_row(OperationType::LOGICAL_AND, {
      .inputs = ops::boolean_ops::kBinaryInputs,
      .outputs = ops::boolean_ops::kOutputs,
      .signatures = ops::logical_and::kSignatures,
  });
};

}  // namespace nnhal
