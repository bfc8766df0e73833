#pragma once
/// \file
/// TANH (28): elementwise hyperbolic tangent; quantized output fixed at scale 1/128, zeroPoint 128
/// (QA8) or 0 (QAS8), enforced at execution.

#include <array>

#include "nnhal/ops/common/v1_0_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace tanh {
inline constexpr auto& kInputs = v1_0::kUnaryInputs;
inline constexpr auto& kOutputs = v1_0::kSingleOutput;
/// F32 1.0; F16, QA8 1.2 (unlike the other activations, quantized TANH is new in 1.2); QAS8 1.3.
inline constexpr auto kSignatures = v1_0::unary(std::array<TypeVersion, 4>{{
    {OperandType::TENSOR_FLOAT32, HalVersion::V1_0},
    {OperandType::TENSOR_FLOAT16, HalVersion::V1_2},
    {OperandType::TENSOR_QUANT8_ASYMM, HalVersion::V1_2},
    {OperandType::TENSOR_QUANT8_ASYMM_SIGNED, HalVersion::V1_3},
}});
/// Input rank <= 4 when known.
inline Status validate(const OperationView& op, HalVersion& version) {
  return v1_0::validate_rank4(op, version);
}
}  // namespace tanh

}  // namespace nnhal::ops

namespace nnhal {

/// TANH in the operation table.
template <>
struct Row<OperationType::TANH> {
  static constexpr OperationInfo info = make_row(OperationType::TANH, {
      .inputs = ops::tanh::kInputs,
      .outputs = ops::tanh::kOutputs,
      .signatures = ops::tanh::kSignatures,
      .validate = &ops::tanh::validate,
      .flags = kOpAllowsZeroSized,
  });
};

}  // namespace nnhal
