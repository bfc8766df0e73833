#pragma once
/// \file
/// SQRT (88): elementwise square root.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

namespace sqrt {
inline constexpr auto& kInputs = lists::kUnaryInputs;
inline constexpr auto& kOutputs = lists::kSingleOutput;
inline constexpr auto kSignatures = lists::unary(lists::kFloat);
}  // namespace sqrt

/// SQRT in the operation table.
struct Sqrt : OperationDescriptor<OperationType::SQRT> {
  static constexpr OperationInfo info{OperationType::SQRT, "SQRT",         HalVersion::V1_2,
                                      sqrt::kInputs,       sqrt::kOutputs, sqrt::kSignatures};
};

}  // namespace nnhal::ops
