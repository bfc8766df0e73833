#pragma once
/// \file
/// LOG (60): elementwise natural logarithm.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace log {
inline constexpr auto& kInputs = lists::kUnaryInputs;
inline constexpr auto& kOutputs = lists::kSingleOutput;
inline constexpr auto kSignatures = lists::unary(lists::kFloat);
}  // namespace log

}  // namespace nnhal::ops

namespace nnhal {

/// LOG in the operation table.
template <>
struct Row<OperationType::LOG> {
  static constexpr OperationInfo info = make_row(OperationType::LOG, {
      .inputs = ops::log::kInputs,
      .outputs = ops::log::kOutputs,
      .signatures = ops::log::kSignatures,
  });
};

}  // namespace nnhal
