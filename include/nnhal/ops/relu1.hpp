#pragma once
/// \file
/// RELU1 (20): elementwise `min(1, max(-1, x))`; the output keeps the input's quantization.

#include "nnhal/ops/common/v1_0_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace relu1 {
inline constexpr auto& kInputs = v1_0::kUnaryInputs;
inline constexpr auto& kOutputs = v1_0::kSingleOutput;
/// F32, QA8 1.0; F16 1.2; QAS8 1.3.
inline constexpr auto kSignatures = v1_0::unary(v1_0::float_quant_types(HalVersion::V1_0));
/// Input rank <= 4 when known.
inline Status validate(const OperationView& op, HalVersion& version) {
  return v1_0::validate_rank4(op, version);
}
}  // namespace relu1

}  // namespace nnhal::ops

namespace nnhal {

/// RELU1 in the operation table.
template <>
struct Row<OperationType::RELU1> {
  static constexpr OperationInfo info = make_row(OperationType::RELU1, {
      .inputs = ops::relu1::kInputs,
      .outputs = ops::relu1::kOutputs,
      .signatures = ops::relu1::kSignatures,
      .validate = &ops::relu1::validate,
      .flags = kOpAllowsZeroSized,
  });
};

}  // namespace nnhal
