#pragma once
/// \file
/// Signatures and validation shared by CONV_2D and DEPTHWISE_CONV_2D: six operand-type
/// configurations (float, quant8 with same-type or per-channel filter) times six input-count
/// forms (implicit or explicit padding, each alone, with a layout flag, or with a layout flag and
/// two dilation factors).

#include <array>
#include <cstddef>
#include <cstdint>

#include "nnhal/core/result.hpp"
#include "nnhal/ops/common/v1_0_signatures.hpp"
#include "nnhal/interface/signature.hpp"
#include "nnhal/interface/operation_view.hpp"

namespace nnhal::ops::conv {

/// One accepted combination of input, filter and bias types, and the version it needs.
struct TypeConfig {
  OperandType input, filter, bias;
  HalVersion version;
};

/// The type configurations of CONV_2D and DEPTHWISE_CONV_2D (the output has the input's type).
inline constexpr std::array<TypeConfig, 6> kTypeConfigs{{
    {OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT32, HalVersion::V1_0},
    {OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_INT32, HalVersion::V1_0},
    {OperandType::TENSOR_FLOAT16, OperandType::TENSOR_FLOAT16, OperandType::TENSOR_FLOAT16, HalVersion::V1_2},
    {OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL, OperandType::TENSOR_INT32, HalVersion::V1_2},
    {OperandType::TENSOR_QUANT8_ASYMM_SIGNED, OperandType::TENSOR_QUANT8_ASYMM_SIGNED, OperandType::TENSOR_INT32, HalVersion::V1_3},
    {OperandType::TENSOR_QUANT8_ASYMM_SIGNED, OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL, OperandType::TENSOR_INT32, HalVersion::V1_3},
}};

/// Number of signatures `signatures()` yields.
inline constexpr std::size_t kSignatureCount = kTypeConfigs.size() * 6;

/// {input, filter, bias, `implicit_scalars` x INT32} (implicit padding) and the same with three
/// more INT32 (explicit padding: four paddings instead of one scheme), each alone, + BOOL layout,
/// + BOOL layout + 2 x INT32 dilation; the layout and dilation forms need 1.2. The two 10-input
/// CONV_2D forms (and the two 11-input DEPTHWISE_CONV_2D forms) differ in the type of the input
/// after the implicit scalars: INT32 = explicit padding, BOOL = implicit padding with layout.
/// A single dilation factor matches no signature, as in the reference.
constexpr std::array<Signature, kSignatureCount> signatures(std::size_t implicit_scalars) {
  using enum OperandType;
  std::array<Signature, kSignatureCount> out{};
  std::size_t k = 0;
  for (const TypeConfig& c : kTypeConfigs) {
    const HalVersion later = max_version(c.version, HalVersion::V1_2);
    for (std::size_t scalars : {implicit_scalars, implicit_scalars + 3}) {
      TypeSeq in{c.input, c.filter, c.bias};
      for (std::size_t i = 0; i < scalars; ++i) in = v1_0::append(in, {INT32});
      out[k++] = sig(c.version, in, {c.input});
      in = v1_0::append(in, {BOOL});
      out[k++] = sig(later, in, {c.input});
      out[k++] = sig(later, v1_0::append(in, {INT32, INT32}), {c.input});
    }
  }
  return out;
}

/// Checks beyond the signature: input and filter rank 4 when known; a per-channel filter
/// quantized along `channel_dim` (0 for CONV_2D, 3 for DEPTHWISE_CONV_2D); and the rule that makes
/// a QA8 operation need 1.2 unless `output_scale > input_scale * filter_scale`.
///
/// Reference quirk (HAL13.md i.7): the reference validator reads the "output" scale from input 0
/// (an output index constant used with the input accessor), so it really tests
/// `input_scale > input_scale * filter_scale`, i.e. filter_scale < 1. This mirrors it, so the
/// version nnhal derives is the one the reference derives.
inline Status validate(const OperationView& op, HalVersion& version, std::uint32_t channel_dim) {
  NNHAL_TRY(v1_0::check_rank(op, 0, 4));
  NNHAL_TRY(v1_0::check_rank(op, 1, 4));
  const Operand& input = op.input(0);
  const Operand& filter = op.input(1);
  if (filter.type == OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL) {
    if (!filter.channelQuant)
      return NNHAL_INVALID("input 1 (filter) is per-channel quantized but has no channel parameters");
    if (filter.channelQuant->channelDim != channel_dim)
      return NNHAL_INVALID("input 1 (filter) is quantized per channel along dimension %" PRIu32
                           ", it must be %" PRIu32,
                           filter.channelQuant->channelDim, channel_dim);
  }
  if (input.type == OperandType::TENSOR_QUANT8_ASYMM) {
    const float output_scale = input.scale;  // sic: see the quirk above
    if (!(output_scale > input.scale * filter.scale)) v1_0::raise(version, HalVersion::V1_2);
  }
  return {};
}

}  // namespace nnhal::ops::conv
