#pragma once
/// \file
/// DEQUANTIZE (6): `output = (input - zeroPoint) * scale` (per-channel: the channel's scale),
/// quantized tensor to float tensor of the same shape.

#include <array>

#include "nnhal/ops/common/v1_0_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace dequantize {
inline constexpr auto& kInputs = v1_0::kUnaryInputs;
inline constexpr auto& kOutputs = v1_0::kSingleOutput;
/// QA8 -> F32 1.0; {QA8, QS8, QPC8} -> {F16, F32} otherwise 1.2; QAS8 -> {F16, F32} 1.3.
inline constexpr auto kSignatures = [] {
  using enum OperandType;
  constexpr std::array<TypeVersion, 4> inputs{{
      {TENSOR_QUANT8_ASYMM, HalVersion::V1_2},
      {TENSOR_QUANT8_SYMM, HalVersion::V1_2},
      {TENSOR_QUANT8_SYMM_PER_CHANNEL, HalVersion::V1_2},
      {TENSOR_QUANT8_ASYMM_SIGNED, HalVersion::V1_3},
  }};
  std::array<Signature, 2 * inputs.size()> out{};
  std::size_t k = 0;
  for (const TypeVersion& in : inputs) {
    const HalVersion f32 = in.type == TENSOR_QUANT8_ASYMM ? HalVersion::V1_0 : in.version;
    out[k++] = sig(f32, {in.type}, {TENSOR_FLOAT32});
    out[k++] = sig(in.version, {in.type}, {TENSOR_FLOAT16});
  }
  return out;
}();

/// Input rank <= 4 when known.
inline Status validate(const OperationView& op, HalVersion& version) {
  return v1_0::validate_rank4(op, version);
}
}  // namespace dequantize

}  // namespace nnhal::ops

namespace nnhal {

/// DEQUANTIZE in the operation table.
template <>
struct Row<OperationType::DEQUANTIZE> {
  static constexpr OperationInfo info = make_row(OperationType::DEQUANTIZE, {
      .inputs = ops::dequantize::kInputs,
      .outputs = ops::dequantize::kOutputs,
      .signatures = ops::dequantize::kSignatures,
      .validate = &ops::dequantize::validate,
      .flags = kOpAllowsZeroSized,
  });
};

}  // namespace nnhal
