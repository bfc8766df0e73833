#pragma once
/// \file
/// LOG (60): elementwise natural logarithm.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

namespace log {
inline constexpr auto& kInputs = lists::kUnaryInputs;
inline constexpr auto& kOutputs = lists::kSingleOutput;
inline constexpr auto kSignatures = lists::unary(lists::kFloat);
}  // namespace log

/// LOG in the operation table.
struct Log : OperationDescriptor<OperationType::LOG> {
  static constexpr OperationInfo info{OperationType::LOG, "LOG",         HalVersion::V1_2,
                                      log::kInputs,       log::kOutputs, log::kSignatures};
};

}  // namespace nnhal::ops
