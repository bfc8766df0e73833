#pragma once
/// \file
/// LESS_EQUAL (59): elementwise `a <= b` with broadcasting, as TENSOR_BOOL8 (quantized inputs
/// compared by real value).

#include "nnhal/ops/common/boolean_ops.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace less_equal {
inline constexpr const auto& kSignatures = boolean_ops::kComparisonSignatures;

}  // namespace less_equal

}  // namespace nnhal::ops

namespace nnhal {

/// LESS_EQUAL in the operation table.
template <>
struct Row<OperationType::LESS_EQUAL> {
  static constexpr OperationInfo info = make_row(OperationType::LESS_EQUAL, {
      .inputs = ops::boolean_ops::kBinaryInputs,
      .outputs = ops::boolean_ops::kOutputs,
      .signatures = ops::less_equal::kSignatures,
  });
};

}  // namespace nnhal
