#pragma once
/// \file
/// RSQRT (83): elementwise reciprocal square root. Quantized RSQRT is feature level 7,
/// outside HAL 1.3, so only the float types are listed.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace rsqrt {
inline constexpr auto& kInputs = lists::kUnaryInputs;
inline constexpr auto& kOutputs = lists::kSingleOutput;
inline constexpr auto kSignatures = lists::unary(lists::kFloat);
}  // namespace rsqrt

}  // namespace nnhal::ops

namespace nnhal {

/// RSQRT in the operation table.
template <>
struct Row<OperationType::RSQRT> {
  static constexpr OperationInfo info = make_row(OperationType::RSQRT, {
      .inputs = ops::rsqrt::kInputs,
      .outputs = ops::rsqrt::kOutputs,
      .signatures = ops::rsqrt::kSignatures,
  });
};

}  // namespace nnhal
