#pragma once
/// \file
/// QUANTIZE (72): float tensor to quantized tensor of the same shape,
/// `q = clamp(round(x / scale) + zeroPoint)`. Zero-sized inputs allowed.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace quantize {
inline constexpr auto& kInputs = lists::kUnaryInputs;
inline constexpr auto& kOutputs = lists::kSingleOutput;
/// {F16 or F32} -> {QA8} (1.2) or {QAS8} (1.3).
inline constexpr std::array<Signature, 4> kSignatures{{
    sig(HalVersion::V1_2, {OperandType::TENSOR_FLOAT16}, {OperandType::TENSOR_QUANT8_ASYMM}),
    sig(HalVersion::V1_2, {OperandType::TENSOR_FLOAT32}, {OperandType::TENSOR_QUANT8_ASYMM}),
    sig(HalVersion::V1_3, {OperandType::TENSOR_FLOAT16}, {OperandType::TENSOR_QUANT8_ASYMM_SIGNED}),
    sig(HalVersion::V1_3, {OperandType::TENSOR_FLOAT32}, {OperandType::TENSOR_QUANT8_ASYMM_SIGNED}),
}};
}  // namespace quantize

}  // namespace nnhal::ops

namespace nnhal {

/// QUANTIZE in the operation table.
template <>
struct Row<OperationType::QUANTIZE> {
  static constexpr OperationInfo info = make_row(OperationType::QUANTIZE, {
      .inputs = ops::quantize::kInputs,
      .outputs = ops::quantize::kOutputs,
      .signatures = ops::quantize::kSignatures,
      .flags = kOpAllowsZeroSized,
  });
};

}  // namespace nnhal
