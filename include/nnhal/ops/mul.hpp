#pragma once
/// \file
/// MUL (18): elementwise product with broadcasting and a fused activation.

#include "nnhal/ops/common/arithmetic.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace mul {
inline constexpr auto kSignatures = arithmetic::signatures(std::array<TypeVersion, 5>{{
    {OperandType::TENSOR_FLOAT32, HalVersion::V1_0},
    {OperandType::TENSOR_QUANT8_ASYMM, HalVersion::V1_0},
    {OperandType::TENSOR_FLOAT16, HalVersion::V1_2},
    {OperandType::TENSOR_QUANT8_ASYMM_SIGNED, HalVersion::V1_3},
    {OperandType::TENSOR_INT32, HalVersion::V1_3},
}});

/// Ranks <= 4; quantized outputs need output_scale > input1_scale * input2_scale.
inline Status validate(const OperationView& op, HalVersion&) {
  NNHAL_TRY(arithmetic::validate_ranks(op));
  const Operand& out = op.output(0);
  if (is_quantized(out.type)) {
    const float product = op.input(0).scale * op.input(1).scale;
    if (!(out.scale > product))
      return NNHAL_INVALID("quantized output scale %g must exceed input0 scale * input1 scale (%g)",
                           static_cast<double>(out.scale), static_cast<double>(product));
  }
  return {};
}

}  // namespace mul

}  // namespace nnhal::ops

namespace nnhal {

/// MUL in the operation table.
template <>
struct Row<OperationType::MUL> {
  static constexpr OperationInfo info = make_row(OperationType::MUL, {
      .inputs = ops::arithmetic::kInputs,
      .outputs = ops::arithmetic::kOutputs,
      .signatures = ops::mul::kSignatures,
      .validate = &ops::mul::validate,
      .flags = kOpAllowsZeroSized,
  });
};

}  // namespace nnhal
