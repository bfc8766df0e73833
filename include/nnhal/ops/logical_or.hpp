#pragma once
/// \file
/// LOGICAL_OR (63): elementwise OR of two TENSOR_BOOL8 with broadcasting (non-zero = true); output 0 or 1.

#include "nnhal/ops/common/boolean_ops.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace logical_or {
inline constexpr const auto& kSignatures = boolean_ops::kLogicalBinarySignatures;

}  // namespace logical_or

}  // namespace nnhal::ops

namespace nnhal {

/// LOGICAL_OR in the operation table.
template <>
struct Row<OperationType::LOGICAL_OR> {
  static constexpr OperationInfo info = make_row(OperationType::LOGICAL_OR, {
      .inputs = ops::boolean_ops::kBinaryInputs,
      .outputs = ops::boolean_ops::kOutputs,
      .signatures = ops::logical_or::kSignatures,
  });
};

}  // namespace nnhal
