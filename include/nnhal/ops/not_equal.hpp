#pragma once
/// \file
/// NOT_EQUAL (68): elementwise `a != b` with broadcasting, as TENSOR_BOOL8 (quantized inputs
/// compared by real value).

#include "nnhal/ops/common/boolean_ops.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace not_equal {
inline constexpr const auto& kSignatures = boolean_ops::kComparisonSignatures;

}  // namespace not_equal

}  // namespace nnhal::ops

namespace nnhal {

/// NOT_EQUAL in the operation table.
template <>
struct Row<OperationType::NOT_EQUAL> {
  static constexpr OperationInfo info = make_row(OperationType::NOT_EQUAL, {
      .inputs = ops::boolean_ops::kBinaryInputs,
      .outputs = ops::boolean_ops::kOutputs,
      .signatures = ops::not_equal::kSignatures,
  });
};

}  // namespace nnhal
