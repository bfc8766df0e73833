#pragma once
/// \file
/// SIN (85): elementwise sine.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace sin {
inline constexpr auto& kInputs = lists::kUnaryInputs;
inline constexpr auto& kOutputs = lists::kSingleOutput;
inline constexpr auto kSignatures = lists::unary(lists::kFloat);
}  // namespace sin

}  // namespace nnhal::ops

namespace nnhal {

/// SIN in the operation table.
template <>
struct Row<OperationType::SIN> {
  static constexpr OperationInfo info = make_row(OperationType::SIN, {
      .inputs = ops::sin::kInputs,
      .outputs = ops::sin::kOutputs,
      .signatures = ops::sin::kSignatures,
  });
};

}  // namespace nnhal
