#pragma once
/// \file
/// GREATER (53): elementwise `a > b` with broadcasting, as TENSOR_BOOL8 (quantized inputs
/// compared by real value).

#include "nnhal/ops/common/boolean_ops.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace greater {
inline constexpr const auto& kSignatures = boolean_ops::kComparisonSignatures;

}  // namespace greater

}  // namespace nnhal::ops

namespace nnhal {

/// GREATER in the operation table.
template <>
struct Row<OperationType::GREATER> {
  static constexpr OperationInfo info = make_row(OperationType::GREATER, {
      .inputs = ops::boolean_ops::kBinaryInputs,
      .outputs = ops::boolean_ops::kOutputs,
      .signatures = ops::greater::kSignatures,
  });
};

}  // namespace nnhal
