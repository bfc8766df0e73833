#pragma once
/// \file
/// RSQRT (83): elementwise reciprocal square root. Quantized RSQRT is feature level 7,
/// outside HAL 1.3, so only the float types are listed.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

namespace rsqrt {
inline constexpr auto& kInputs = lists::kUnaryInputs;
inline constexpr auto& kOutputs = lists::kSingleOutput;
inline constexpr auto kSignatures = lists::unary(lists::kFloat);
}  // namespace rsqrt

/// RSQRT in the operation table.
struct Rsqrt : OperationDescriptor<OperationType::RSQRT> {
  static constexpr OperationInfo info{OperationType::RSQRT, "RSQRT",         HalVersion::V1_2,
                                      rsqrt::kInputs,       rsqrt::kOutputs, rsqrt::kSignatures};
};

}  // namespace nnhal::ops
