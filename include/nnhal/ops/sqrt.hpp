#pragma once
/// \file
/// SQRT (88): elementwise square root.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace sqrt {
inline constexpr auto& kInputs = lists::kUnaryInputs;
inline constexpr auto& kOutputs = lists::kSingleOutput;
inline constexpr auto kSignatures = lists::unary(lists::kFloat);
}  // namespace sqrt

}  // namespace nnhal::ops

namespace nnhal {

/// SQRT in the operation table.
template <>
struct Row<OperationType::SQRT> {
  static constexpr OperationInfo info = make_row(OperationType::SQRT, {
      .inputs = ops::sqrt::kInputs,
      .outputs = ops::sqrt::kOutputs,
      .signatures = ops::sqrt::kSignatures,
  });
};

}  // namespace nnhal
