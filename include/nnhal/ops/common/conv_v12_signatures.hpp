#pragma once
/// \file
/// Signatures and validation shared by GROUPED_CONV_2D and TRANSPOSE_CONV_2D (both added in
/// HAL 1.2): six input/filter/bias type configurations, each combined with the operation's
/// implicit- and explicit-padding scalar lists, and the per-channel filter rule.

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "nnhal/core/result.hpp"
#include "nnhal/interface/signature.hpp"
#include "nnhal/interface/operation_view.hpp"

namespace nnhal::ops::conv_v12 {

/// One accepted combination of input, filter and bias types (the output has the input's type).
struct FilterConfig {
  OperandType input, filter, bias;
  HalVersion version;
};

/// F32 / F16 with same-type filter and bias (1.2); QA8 with QA8 or per-channel filter and INT32
/// bias (1.2); QAS8 with QAS8 or per-channel filter and INT32 bias (1.3).
inline constexpr std::array<FilterConfig, 6> kFilterConfigs{{
    {OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT32,
     HalVersion::V1_2},
    {OperandType::TENSOR_FLOAT16, OperandType::TENSOR_FLOAT16, OperandType::TENSOR_FLOAT16,
     HalVersion::V1_2},
    {OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_INT32,
     HalVersion::V1_2},
    {OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL,
     OperandType::TENSOR_INT32, HalVersion::V1_2},
    {OperandType::TENSOR_QUANT8_ASYMM_SIGNED, OperandType::TENSOR_QUANT8_ASYMM_SIGNED,
     OperandType::TENSOR_INT32, HalVersion::V1_3},
    {OperandType::TENSOR_QUANT8_ASYMM_SIGNED, OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL,
     OperandType::TENSOR_INT32, HalVersion::V1_3},
}};

/// {input, filter, bias, rest...} -> {input} for every filter configuration.
constexpr std::array<Signature, kFilterConfigs.size()> signatures(
    std::initializer_list<OperandType> rest) {
  std::array<Signature, kFilterConfigs.size()> out{};
  for (std::size_t k = 0; k < kFilterConfigs.size(); ++k) {
    const FilterConfig& c = kFilterConfigs[k];
    TypeSeq in{c.input, c.filter, c.bias};
    for (OperandType t : rest) in.push_back(t);
    out[k] = sig(c.version, in, {c.input});
  }
  return out;
}

/// A per-channel quantized filter (input `i`) must be quantized along dimension `channel_dim`.
inline Status check_per_channel_filter(const OperationView& op, std::size_t i,
                                       std::uint32_t channel_dim) {
  const Operand& filter = op.input(i);
  if (filter.type != OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL) return {};
  if (!filter.channelQuant)
    return NNHAL_INVALID(
        "input %zu (filter) is per-channel quantized but has no channel parameters", i);
  if (filter.channelQuant->channelDim != channel_dim)
    return NNHAL_INVALID("input %zu (filter) is quantized per channel along dimension %" PRIu32
                         ", it must be %" PRIu32,
                         i, filter.channelQuant->channelDim, channel_dim);
  return {};
}

}  // namespace nnhal::ops::conv_v12
