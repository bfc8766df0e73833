#pragma once
/// \file
/// RELU6 (21): elementwise `min(6, max(0, x))`; the output keeps the input's quantization.

#include "nnhal/ops/common/v1_0_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace relu6 {
inline constexpr auto& kInputs = v1_0::kUnaryInputs;
inline constexpr auto& kOutputs = v1_0::kSingleOutput;
/// F32, QA8 1.0; F16 1.2; QAS8 1.3.
inline constexpr auto kSignatures = v1_0::unary(v1_0::float_quant_types(HalVersion::V1_0));
/// Input rank <= 4 when known.
inline Status validate(const OperationView& op, HalVersion& version) {
  return v1_0::validate_rank4(op, version);
}
}  // namespace relu6

}  // namespace nnhal::ops

namespace nnhal {

/// RELU6 in the operation table.
template <>
struct Row<OperationType::RELU6> {
  static constexpr OperationInfo info = make_row(OperationType::RELU6, {
      .inputs = ops::relu6::kInputs,
      .outputs = ops::relu6::kOutputs,
      .signatures = ops::relu6::kSignatures,
      .validate = &ops::relu6::validate,
      .flags = kOpAllowsZeroSized,
  });
};

}  // namespace nnhal
