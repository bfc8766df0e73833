#pragma once
/// \file
/// The kernels of LOGISTIC and TANH: float maps, and the reference's quantized algorithm (the
/// input rescaled to Q4.27, gemmlowp's fixed-point logistic / tanh, the result rounded to the
/// fixed output scale: 1/256 for LOGISTIC, 1/128 for TANH). FLOAT32 runs the SIMD family
/// chosen at prepare (nnhal/simd/activation_f32.hpp, within a few ulp of std::exp / std::tanh);
/// the quantized types look each element up in a table of the reference's 256 results built at
/// prepare (kernels/common/lut.hpp), or compute it when there is no packed storage.

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "nnhal/kernels/common/elementwise.hpp"
#include "nnhal/kernels/common/fixed_point.hpp"
#include "nnhal/kernels/common/lut.hpp"
#include "nnhal/kernels/common/quantization.hpp"
#include "nnhal/kernels/common/simd_params.hpp"
#include "nnhal/simd/activation_f32.hpp"

namespace nnhal::kernels::sigmoid {

/// The types of LOGISTIC and TANH.
inline constexpr std::array kTypes{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_QUANT8_ASYMM,
                                   OperandType::TENSOR_FLOAT16, OperandType::TENSOR_QUANT8_ASYMM_SIGNED};

/// Integer bits of the rescaled input.
inline constexpr int kInputIntegerBits = 4;

/// Node parameters of the quantized kernels.
struct QuantParams {
  std::int32_t zero_point;
  std::int32_t radius;  ///< |input - zero_point| at or beyond which the output saturates
  quant::Multiplier input;
};

/// The input multiplier (input scale * 2^27, which must exceed 1) and saturation radius.
inline Expected<QuantParams> make_params(const RtOperand& in, std::string_view op) {
  const double real = static_cast<double>(in.scale) * static_cast<double>(1 << (31 - kInputIntegerBits));
  const auto m = fixed::quantize_multiplier_greater_than_one(real);
  if (!m) return NNHAL_FAILURE("%s input scale %g is too small or too large for the quantized kernel", op.data(),
                               static_cast<double>(in.scale));
  return QuantParams{in.zero_point, fixed::input_radius(kInputIntegerBits, m->shift), *m};
}

/// LOGISTIC or TANH (Tanh = true) of one quantized element, exactly as the reference computes it.
template <bool Tanh, class E>
E quant_one(std::int32_t q, const QuantParams& p) noexcept {
  constexpr bool is_signed = std::is_signed_v<E>;
  constexpr std::int32_t lo = is_signed ? -128 : 0, hi = is_signed ? 127 : 255;
  const std::int32_t centered = q - p.zero_point;
  if (centered <= -p.radius) return static_cast<E>(lo);
  if (centered >= p.radius) return static_cast<E>(hi);
  const std::int32_t rescaled = quant::multiply_by_quantized_multiplier(centered, p.input.value, p.input.shift);
  const auto x = fixed::Fixed<kInputIntegerBits>::from_raw(rescaled);
  std::int32_t r;
  if constexpr (Tanh) {
    // Q0.31 to Q24.7 (scale 1/128); unsigned outputs are offset by 128.
    r = quant::rounding_divide_by_pot(fixed::tanh(x).raw, 24) + (is_signed ? 0 : 128);
  } else {
    // Q0.31 to Q23.8 (scale 1/256); signed outputs are offset by -128.
    r = quant::rounding_divide_by_pot(fixed::logistic(x).raw, 23) + (is_signed ? -128 : 0);
  }
  return static_cast<E>(r < lo ? lo : (r > hi ? hi : r));
}

template <bool Tanh, OperandType T>
Status kernel_quant(const NodeIO& io) {
  using E = element_t<T>;
  const auto& p = io.params<QuantParams>();
  const std::size_t n = static_cast<std::size_t>(io.input(0).dims.element_count());
  const E* in = io.in_data<T>(0);
  E* out = io.out_data<T>(0);
  for (std::size_t i = 0; i < n; ++i) out[i] = quant_one<Tanh, E>(in[i], p);
  return {};
}

template <bool Tanh, OperandType T>
Status kernel_float(const NodeIO& io) {
  if constexpr (Tanh)
    elementwise::map_float<T>(io, [](float x) { return std::tanh(x); });
  else
    elementwise::map_float<T>(io, [](float x) { return 1.0f / (1.0f + std::exp(-x)); });
  return {};
}

/// FLOAT32 through the SIMD family chosen at prepare.
template <bool Tanh>
Status kernel_f32(const NodeIO& io) {
  const std::size_t n = static_cast<std::size_t>(io.input(0).dims.element_count());
  const simd::ActivationF32& k = *io.params<SimdParams<simd::ActivationF32>>().simd;
  (Tanh ? k.tanh : k.logistic)(io.in_data<OperandType::TENSOR_FLOAT32>(0), io.out_data<OperandType::TENSOR_FLOAT32>(0),
                               n);
  return {};
}

/// LOGISTIC (Tanh = false) or TANH: rank <= 4, zero-sized tensors allowed; a quantized output
/// must be declared with the fixed scale and zero point.
template <bool Tanh, const std::string_view& Name>
struct Family : KernelFamily {
  static constexpr auto types = kTypes;

  static Status infer(const NodeIO& io) { return elementwise::infer_same_shape(io, Name, 4); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO& io, KernelPrepare& prepare) {
    if constexpr (T == OperandType::TENSOR_FLOAT32) {
      if (prepare.reference) return &kernel_float<Tanh, T>;
      prepare.store(simd_params(simd::activation_f32()));
      return &kernel_f32<Tanh>;
    } else if constexpr (T == OperandType::TENSOR_FLOAT16) {
      return &kernel_float<Tanh, T>;
    } else {
      constexpr bool is_signed = T == OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
      if constexpr (Tanh)
        NNHAL_TRY(elementwise::require_output_quant(io, Name, 1.0f / 128, is_signed ? 0 : 128));
      else
        NNHAL_TRY(elementwise::require_output_quant(io, Name, 1.0f / 256, is_signed ? -128 : 0));
      auto p = make_params(io.input(0), Name);
      if (!p) return std::move(p.error());
      prepare.store(*p);
      using E = element_t<T>;
      if (lut::pack<E>(prepare, [&p](E q) { return quant_one<Tanh, E>(q, *p); })) return &lut::kernel<T>;
      return &kernel_quant<Tanh, T>;
    }
  }
};

}  // namespace nnhal::kernels::sigmoid
