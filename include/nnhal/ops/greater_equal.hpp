#pragma once
/// \file
/// GREATER_EQUAL (54): elementwise `a >= b` with broadcasting, as TENSOR_BOOL8 (quantized inputs
/// compared by real value).

#include "nnhal/ops/common/boolean_ops.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace greater_equal {
inline constexpr const auto& kSignatures = boolean_ops::kComparisonSignatures;

}  // namespace greater_equal

}  // namespace nnhal::ops

namespace nnhal {

/// GREATER_EQUAL in the operation table.
template <>
struct Row<OperationType::GREATER_EQUAL> {
  static constexpr OperationInfo info = make_row(OperationType::GREATER_EQUAL, {
      .inputs = ops::boolean_ops::kBinaryInputs,
      .outputs = ops::boolean_ops::kOutputs,
      .signatures = ops::greater_equal::kSignatures,
  });
};

}  // namespace nnhal
