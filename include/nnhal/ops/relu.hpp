#pragma once
/// \file
/// RELU (19): elementwise `max(0, x)`; the output keeps the input's quantization.

#include "nnhal/ops/common/v1_0_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace relu {
inline constexpr auto& kInputs = v1_0::kUnaryInputs;
inline constexpr auto& kOutputs = v1_0::kSingleOutput;
/// F32, QA8 1.0; F16 1.2; QAS8 1.3.
inline constexpr auto kSignatures = v1_0::unary(v1_0::float_quant_types(HalVersion::V1_0));
/// Input rank <= 4 when known.
inline Status validate(const OperationView& op, HalVersion& version) {
  return v1_0::validate_rank4(op, version);
}
}  // namespace relu

}  // namespace nnhal::ops

namespace nnhal {

/// RELU in the operation table.
template <>
struct Row<OperationType::RELU> {
  static constexpr OperationInfo info = make_row(OperationType::RELU, {
      .inputs = ops::relu::kInputs,
      .outputs = ops::relu::kOutputs,
      .signatures = ops::relu::kSignatures,
      .validate = &ops::relu::validate,
      .flags = kOpAllowsZeroSized,
  });
};

}  // namespace nnhal
