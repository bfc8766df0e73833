#pragma once
/// \file
/// LOGISTIC (14): elementwise sigmoid `1 / (1 + exp(-x))`; quantized output fixed at scale 1/256,
/// zeroPoint 0 (QA8) or -128 (QAS8), enforced at execution.

#include "nnhal/ops/common/v1_0_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace logistic {
inline constexpr auto& kInputs = v1_0::kUnaryInputs;
inline constexpr auto& kOutputs = v1_0::kSingleOutput;
/// F32, QA8 1.0; F16 1.2; QAS8 1.3.
inline constexpr auto kSignatures = v1_0::unary(v1_0::float_quant_types(HalVersion::V1_0));
/// Input rank <= 4 when known.
inline Status validate(const OperationView& op, HalVersion& version) {
  return v1_0::validate_rank4(op, version);
}
}  // namespace logistic

}  // namespace nnhal::ops

namespace nnhal {

/// LOGISTIC in the operation table.
template <>
struct Row<OperationType::LOGISTIC> {
  static constexpr OperationInfo info = make_row(OperationType::LOGISTIC, {
      .inputs = ops::logistic::kInputs,
      .outputs = ops::logistic::kOutputs,
      .signatures = ops::logistic::kSignatures,
      .validate = &ops::logistic::validate,
      .flags = kOpAllowsZeroSized,
  });
};

}  // namespace nnhal
