#pragma once
/// \file
/// EQUAL (48): elementwise `a == b` with broadcasting, as TENSOR_BOOL8 (quantized inputs
/// compared by real value).

#include "nnhal/ops/common/boolean_ops.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace equal {
inline constexpr const auto& kSignatures = boolean_ops::kComparisonSignatures;

}  // namespace equal

}  // namespace nnhal::ops

namespace nnhal {

/// EQUAL in the operation table.
template <>
struct Row<OperationType::EQUAL> {
  static constexpr OperationInfo info = make_row(OperationType::EQUAL, {
      .inputs = ops::boolean_ops::kBinaryInputs,
      .outputs = ops::boolean_ops::kOutputs,
      .signatures = ops::equal::kSignatures,
  });
};

}  // namespace nnhal
