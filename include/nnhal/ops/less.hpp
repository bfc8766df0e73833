#pragma once
/// \file
/// LESS (58): elementwise `a < b` with broadcasting, as TENSOR_BOOL8 (quantized inputs
/// compared by real value).

#include "nnhal/ops/common/boolean_ops.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace less {
inline constexpr const auto& kSignatures = boolean_ops::kComparisonSignatures;

}  // namespace less

}  // namespace nnhal::ops

namespace nnhal {

/// LESS in the operation table.
template <>
struct Row<OperationType::LESS> {
  static constexpr OperationInfo info = make_row(OperationType::LESS, {
      .inputs = ops::boolean_ops::kBinaryInputs,
      .outputs = ops::boolean_ops::kOutputs,
      .signatures = ops::less::kSignatures,
  });
};

}  // namespace nnhal
