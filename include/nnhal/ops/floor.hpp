#pragma once
/// \file
/// FLOOR (8): elementwise round toward negative infinity.

#include "nnhal/ops/common/v1_0_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace floor {
inline constexpr auto& kInputs = v1_0::kUnaryInputs;
inline constexpr auto& kOutputs = v1_0::kSingleOutput;
/// F32 1.0; F16 1.2.
inline constexpr auto kSignatures = v1_0::unary(v1_0::kFloatTypes);
/// Input rank <= 4 when known.
inline Status validate(const OperationView& op, HalVersion& version) {
  return v1_0::validate_rank4(op, version);
}
}  // namespace floor

}  // namespace nnhal::ops

namespace nnhal {

/// FLOOR in the operation table.
template <>
struct Row<OperationType::FLOOR> {
  static constexpr OperationInfo info = make_row(OperationType::FLOOR, {
      .inputs = ops::floor::kInputs,
      .outputs = ops::floor::kOutputs,
      .signatures = ops::floor::kSignatures,
      .validate = &ops::floor::validate,
      .flags = kOpNone,
  });
};

}  // namespace nnhal
