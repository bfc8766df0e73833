#pragma once
/// \file
/// HARD_SWISH kernels (the row: nnhal/ops/hard_swish.hpp): elementwise `x * relu6(x + 3) / 6`
/// over FLOAT32 and FLOAT16 (computed in float), and the reference's int16 fixed-point path for
/// both quant8 types (TFLite reference_ops::HardSwish with the multipliers the reference derives
/// from the input and output scales). No rank limit; zero-sized tensors allowed. FLOAT32 runs
/// the SIMD family chosen at prepare (nnhal/simd/activation_f32.hpp, bit for bit kernel_float);
/// the quantized types look each element up in a table of the reference's 256 results built at
/// prepare (kernels/common/lut.hpp), or compute it when there is no packed storage.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "nnhal/kernels/common/elementwise.hpp"
#include "nnhal/kernels/common/fixed_point.hpp"
#include "nnhal/kernels/common/lut.hpp"
#include "nnhal/kernels/common/quantization.hpp"
#include "nnhal/kernels/common/simd_params.hpp"
#include "nnhal/simd/activation_f32.hpp"
#include "nnhal/ops/hard_swish.hpp"

namespace nnhal::kernels::hard_swish {

/// Node parameters of the quantized kernel (TFLite HardSwishParams).
struct QuantParams {
  std::int32_t input_zero_point;
  std::int32_t output_zero_point;
  std::int16_t output_multiplier;   ///< Q15
  std::int16_t reluish_multiplier;  ///< Q15
  int output_exponent;              ///< <= 0
  int reluish_exponent;
};

/// The multipliers, computed in float as the reference does. The output multiplier
/// (input scale / 128 / output scale) must be below 1.
inline Expected<QuantParams> make_params(const RtOperand& in, const RtOperand& out) {
  QuantParams p{};
  p.input_zero_point = in.zero_point;
  p.output_zero_point = out.zero_point;
  const float hires_input_scale = (1.0f / 128.0f) * in.scale;
  const float reluish_scale = 3.0f / 32768.0f;
  const quant::Multiplier o = quant::quantize_multiplier(static_cast<double>(hires_input_scale / out.scale));
  if (o.shift > 0)
    return NNHAL_FAILURE("HARD_SWISH input scale %g / 128 must be below the output scale %g",
                         static_cast<double>(in.scale), static_cast<double>(out.scale));
  p.output_multiplier = fixed::downscale_multiplier_to_int16(o.value);
  p.output_exponent = o.shift;
  const quant::Multiplier r = quant::quantize_multiplier(static_cast<double>(hires_input_scale / reluish_scale));
  p.reluish_multiplier = fixed::downscale_multiplier_to_int16(r.value);
  p.reluish_exponent = r.shift;
  return p;
}

/// One element, step for step as TFLite reference_ops::HardSwish on quantized data.
template <class E>
E quant_one(std::int32_t q, const QuantParams& p) noexcept {
  const auto input_value = static_cast<std::int16_t>(q - p.input_zero_point);
  const auto hires = static_cast<std::int16_t>(input_value * (1 << 7));
  const std::int16_t preshift_output = fixed::saturating_rounding_doubling_high_mul16(hires, p.output_multiplier);
  // The "relu-ish" factor: x rescaled so that 3 maps to 32768, saturating, then mapped from
  // [-1, 1] to [0, 1].
  std::int16_t reluish = hires;
  if (p.reluish_exponent > 0) reluish = fixed::saturating_left_shift16(reluish, p.reluish_exponent - 1);
  reluish = fixed::saturating_rounding_doubling_high_mul16(reluish, p.reluish_multiplier);
  if (p.reluish_exponent > 0) reluish = fixed::saturating_left_shift16(reluish, 1);
  if (p.reluish_exponent < 0)
    reluish = static_cast<std::int16_t>(quant::rounding_divide_by_pot(reluish, -p.reluish_exponent));
  reluish = static_cast<std::int16_t>((reluish + (1 << 15)) >> 1);
  const std::int16_t preshift = fixed::saturating_doubling_high_mul16(reluish, preshift_output);
  std::int32_t r = quant::rounding_divide_by_pot(preshift, -p.output_exponent) + p.output_zero_point;
  r = std::clamp<std::int32_t>(r, std::numeric_limits<E>::min(), std::numeric_limits<E>::max());
  return static_cast<E>(r);
}

template <OperandType T>
Status kernel_quant(const NodeIO& io) {
  using E = element_t<T>;
  const auto& p = io.params<QuantParams>();
  const std::size_t n = static_cast<std::size_t>(io.input(0).dims.element_count());
  const E* in = io.in_data<T>(0);
  E* out = io.out_data<T>(0);
  for (std::size_t i = 0; i < n; ++i) out[i] = quant_one<E>(in[i], p);
  return {};
}

template <OperandType T>
Status kernel_float(const NodeIO& io) {
  elementwise::map_float<T>(io, [](float x) { return x * std::min(6.0f, std::max(0.0f, x + 3.0f)) / 6.0f; });
  return {};
}

/// FLOAT32 through the SIMD family chosen at prepare.
inline Status kernel_f32(const NodeIO& io) {
  const std::size_t n = static_cast<std::size_t>(io.input(0).dims.element_count());
  io.params<SimdParams<simd::ActivationF32>>().simd->hard_swish(io.in_data<OperandType::TENSOR_FLOAT32>(0),
                                                                io.out_data<OperandType::TENSOR_FLOAT32>(0), n);
  return {};
}

/// HARD_SWISH's kernels; the quantized output may have its own scale and zero point.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                                    OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_ASYMM_SIGNED};

  static Status infer(const NodeIO& io) { return elementwise::infer_same_shape(io, "HARD_SWISH"); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO& io, KernelPrepare& prepare) {
    if constexpr (T == OperandType::TENSOR_FLOAT32) {
      if (prepare.reference) return &kernel_float<T>;
      prepare.store(simd_params(simd::activation_f32()));
      return &kernel_f32;
    } else if constexpr (T == OperandType::TENSOR_FLOAT16) {
      return &kernel_float<T>;
    } else {
      auto p = make_params(io.input(0), io.output(0));
      if (!p) return std::move(p.error());
      prepare.store(*p);
      using E = element_t<T>;
      if (lut::pack<E>(prepare, [&p](E q) { return quant_one<E>(q, *p); })) return &lut::kernel<T>;
      return &kernel_quant<T>;
    }
  }
};

}  // namespace nnhal::kernels::hard_swish

namespace nnhal {

template <>
struct Kernels<OperationType::HARD_SWISH> : kernels::hard_swish::Family {};
static_assert(kernels_cover_row<OperationType::HARD_SWISH>());

}  // namespace nnhal
