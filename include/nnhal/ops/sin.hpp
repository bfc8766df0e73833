#pragma once
/// \file
/// SIN (85): elementwise sine.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

namespace sin {
inline constexpr auto& kInputs = lists::kUnaryInputs;
inline constexpr auto& kOutputs = lists::kSingleOutput;
inline constexpr auto kSignatures = lists::unary(lists::kFloat);
}  // namespace sin

/// SIN in the operation table.
struct Sin : OperationDescriptor<OperationType::SIN> {
  static constexpr OperationInfo info{OperationType::SIN, "SIN",         HalVersion::V1_2,
                                      sin::kInputs,       sin::kOutputs, sin::kSignatures};
};

}  // namespace nnhal::ops
