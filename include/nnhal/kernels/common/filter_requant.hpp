#pragma once
/// \file
/// Helpers shared by the convolution kernels (CONV_2D, GROUPED_CONV_2D, DEPTHWISE_CONV_2D,
/// TRANSPOSE_CONV_2D) and FULLY_CONNECTED: float / half conversions, and the requantization of
/// 8-bit products with a same-type or a per-channel filter (multipliers as the Android reference
/// derives them, packed per channel at prepare).

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "nnhal/core/half.hpp"
#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/quantization.hpp"

namespace nnhal::kernels::filter_requant {

inline float to_float(float x) noexcept { return x; }
inline float to_float(Half x) noexcept { return static_cast<float>(x); }
template <class E>
E from_float(float x) noexcept {
  return E(x);
}

/// Requantization of the 8-bit kernels, fixed at prepare.
struct QuantParams {
  std::int32_t input_offset = 0;   ///< -input zero point
  std::int32_t filter_offset = 0;  ///< -filter zero point (0 for a per-channel filter)
  std::int32_t output_offset = 0;  ///< output zero point
  quant::Multiplier output{};      ///< per-tensor multiplier (same-type filter)
  std::uint32_t channels = 0;      ///< output channels of the packed tables (0: none packed)
  bool per_channel = false;        ///< per-channel filter: the packed tables are the only multipliers
};

/// Multiplier of output channel oc: the packed per-channel table or the per-tensor one.
inline const quant::Multiplier& multiplier_of(const QuantParams& p, const quant::Multiplier* table, std::size_t oc) noexcept {
  return p.per_channel ? table[oc] : p.output;
}

/// acc (wrapped int32 sum + bias) rescaled, offset and clamped.
template <class E>
inline E requantize_acc(std::uint32_t acc, const quant::Multiplier& m, std::int32_t out_off, quant::QuantRange range) noexcept {
  std::int32_t r = quant::multiply_by_quantized_multiplier(static_cast<std::int32_t>(acc), m.value, m.shift) + out_off;
  r = r < range.min ? range.min : (r > range.max ? range.max : r);
  return static_cast<E>(r);
}

/// The reference's GetQuantizedConvolutionMultiplier: input_scale * filter_scale taken in float
/// and widened, compared with the bias scale to within 1e-6 relative (an execution-time check
/// in the reference, an error at prepare here), divided by the output scale in double.
inline Expected<quant::Multiplier> conv_multiplier(float in_scale, float filter_scale, float bias_scale,
                                                   float out_scale, const char* op) noexcept {
  const double product = static_cast<double>(in_scale * filter_scale);
  const double bs = bias_scale;
  if (!(product >= 0.0) || !(std::abs(product - bs) <= 1e-6 * (product < bs ? product : bs)))
    return NNHAL_FAILURE("%s bias scale %g differs from input scale * filter scale %g", op, bs, product);
  if (!(out_scale > 0.0f)) return NNHAL_FAILURE("%s output scale %g is not positive", op, static_cast<double>(out_scale));
  return quant::quantize_multiplier(product / static_cast<double>(out_scale));
}

/// The packed multiplier tables of `channels` output channels: Multiplier[channels] (for the
/// scalar kernels), then three int32[channels] arrays, multiplier, left shift and right shift
/// (for SIMD kernels that load them per block of channels).
struct Tables {
  const quant::Multiplier* aos = nullptr;
  const std::int32_t* multiplier = nullptr;
  const std::int32_t* left_shift = nullptr;
  const std::int32_t* right_shift = nullptr;
};
inline constexpr std::size_t kTableBytesPerChannel = sizeof(quant::Multiplier) + 3 * sizeof(std::int32_t);

inline Tables tables_of(const std::byte* packed, std::size_t channels) noexcept {
  Tables t;
  if (packed == nullptr || channels == 0) return t;
  t.aos = reinterpret_cast<const quant::Multiplier*>(packed);
  const auto* ints = reinterpret_cast<const std::int32_t*>(packed + channels * sizeof(quant::Multiplier));
  t.multiplier = ints, t.left_shift = ints + channels, t.right_shift = ints + 2 * channels;
  return t;
}

/// Fills the quantized parameters and packs the per-channel multiplier tables (Tables): for a
/// per-channel filter from its scales (operand metadata, known at prepare), for a same-type
/// filter the one multiplier repeated, when the filter's dimension `channel_dim` (its output
/// channels) is known. The bias scale of a per-channel filter is implied per channel (the
/// reference checks it against the very product it is derived from), so only the same-type
/// filter's bias scale is checked.
inline Status prepare_quant(const NodeIO& io, KernelPrepare& prepare, QuantParams& q, const char* op,
                            std::size_t channel_dim) {
  const RtOperand &in = io.input(0), &f = io.input(1), &bias = io.input(2), &out = io.output(0);
  q.input_offset = -in.zero_point;
  q.output_offset = out.zero_point;
  std::size_t channels = 0;
  if (f.type == OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL) {
    if (f.channel_quant == nullptr || f.channel_quant->scales.empty())
      return NNHAL_FAILURE("%s per-channel filter has no channel scales", op);
    q.per_channel = true;
    channels = f.channel_quant->scales.size();
  } else {
    q.filter_offset = -f.zero_point;
    auto m = conv_multiplier(in.scale, f.scale, bias.scale, out.scale, op);
    if (!m) return std::move(m.error());
    q.output = *m;
    if (f.rank_known && f.dims.rank() == 4 && f.dims.all_known()) channels = f.dims[channel_dim];
  }
  if (channels > (std::size_t{1} << 28)) return NNHAL_FAILURE("%s has too many output channels", op);
  q.channels = static_cast<std::uint32_t>(channels);
  if (channels == 0) return {};
  std::byte* packed = prepare.pack(channels * kTableBytesPerChannel);
  auto* ints = packed == nullptr ? nullptr : reinterpret_cast<std::int32_t*>(packed + channels * sizeof(quant::Multiplier));
  for (std::size_t c = 0; c < channels; ++c) {
    quant::Multiplier m = q.output;
    if (q.per_channel) {
      const float scale = f.channel_quant->scales[c];
      auto pm = conv_multiplier(in.scale, scale, in.scale * scale, out.scale, op);
      if (!pm) return std::move(pm.error());
      m = *pm;
    }
    if (packed == nullptr) continue;
    std::memcpy(packed + c * sizeof(quant::Multiplier), &m, sizeof m);
    ints[c] = m.value;
    ints[channels + c] = m.shift > 0 ? m.shift : 0;
    ints[2 * channels + c] = m.shift > 0 ? 0 : -m.shift;
  }
  return {};
}

}  // namespace nnhal::kernels::filter_requant
