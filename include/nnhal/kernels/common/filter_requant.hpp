#pragma once
/// \file
/// Helpers shared by the DEPTHWISE_CONV_2D and TRANSPOSE_CONV_2D kernels: float / half
/// conversions, and the requantization of 8-bit convolutions with a same-type or a per-channel
/// filter (multipliers as the Android reference derives them, packed per channel at prepare).

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
  std::uint32_t channels = 0;      ///< per-channel multipliers packed (0: per tensor)
};

/// Multiplier of output channel oc: the packed per-channel table or the per-tensor one.
inline const quant::Multiplier& multiplier_of(const QuantParams& p, const quant::Multiplier* table, std::size_t oc) noexcept {
  return p.channels != 0 ? table[oc] : p.output;
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

/// Fills the quantized parameters and, for a per-channel filter, packs one multiplier per
/// output channel (the filter's scales are operand metadata, known at prepare). The bias scale
/// of a per-channel filter is implied per channel (the reference checks it against the very
/// product it is derived from), so only the same-type filter's bias scale is checked.
inline Status prepare_quant(const NodeIO& io, KernelPrepare& prepare, QuantParams& q, const char* op) {
  const RtOperand &in = io.input(0), &f = io.input(1), &bias = io.input(2), &out = io.output(0);
  q.input_offset = -in.zero_point;
  q.output_offset = out.zero_point;
  if (f.type == OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL) {
    if (f.channel_quant == nullptr || f.channel_quant->scales.empty())
      return NNHAL_FAILURE("%s per-channel filter has no channel scales", op);
    const auto& scales = f.channel_quant->scales;
    if (scales.size() > UINT32_MAX / sizeof(quant::Multiplier)) return NNHAL_FAILURE("%s has too many channel scales", op);
    q.channels = static_cast<std::uint32_t>(scales.size());
    std::byte* packed = prepare.pack(scales.size() * sizeof(quant::Multiplier));
    for (std::size_t c = 0; c < scales.size(); ++c) {
      auto m = conv_multiplier(in.scale, scales[c], in.scale * scales[c], out.scale, op);
      if (!m) return std::move(m.error());
      if (packed != nullptr) std::memcpy(packed + c * sizeof(quant::Multiplier), &*m, sizeof *m);
    }
    return {};
  }
  q.filter_offset = -f.zero_point;
  auto m = conv_multiplier(in.scale, f.scale, bias.scale, out.scale, op);
  if (!m) return std::move(m.error());
  q.output = *m;
  return {};
}

}  // namespace nnhal::kernels::filter_requant
