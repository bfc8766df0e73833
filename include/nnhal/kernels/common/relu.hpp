#pragma once
/// \file
/// The kernels of RELU, RELU1 and RELU6: a clamp of each element, on float values or, for the
/// quantized types, on the stored integers (the bounds quantized with the input's parameters,
/// as the reference's CalculateActivationRange does; the output keeps the input's quantization).
/// FLOAT32 and both quant8 types run the SIMD families chosen at prepare
/// (nnhal/simd/activation_f32.hpp, nnhal/simd/quant8.hpp; bit for bit the scalar clamp).

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "nnhal/kernels/common/activation.hpp"
#include "nnhal/kernels/common/elementwise.hpp"
#include "nnhal/kernels/common/quantization.hpp"
#include "nnhal/kernels/common/simd_params.hpp"
#include "nnhal/simd/activation_f32.hpp"
#include "nnhal/simd/quant8.hpp"

namespace nnhal::kernels::relu {

/// The types of RELU, RELU1 and RELU6.
inline constexpr std::array kTypes{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_QUANT8_ASYMM,
                                   OperandType::TENSOR_FLOAT16, OperandType::TENSOR_QUANT8_ASYMM_SIGNED};

/// Float clamp, computed in float for FLOAT16 as for FLOAT32.
template <OperandType T, FusedActivationFunc Act>
Status kernel_float(const NodeIO& io) {
  const FloatRange r = float_activation_range(static_cast<std::int32_t>(Act));
  elementwise::map_float<T>(io, [r](float x) { return r.apply(x); });
  return {};
}

/// FLOAT32 clamp through the SIMD family chosen at prepare (bit for bit kernel_float).
template <FusedActivationFunc Act>
Status kernel_f32(const NodeIO& io) {
  const FloatRange r = float_activation_range(static_cast<std::int32_t>(Act));
  const std::size_t n = static_cast<std::size_t>(io.input(0).dims.element_count());
  io.params<SimdParams<simd::ActivationF32>>().simd->clamp(io.in_data<OperandType::TENSOR_FLOAT32>(0),
                                                           io.out_data<OperandType::TENSOR_FLOAT32>(0), n, r.min,
                                                           r.max);
  return {};
}

/// Node parameters of the quantized kernel: the clamp range and the SIMD table (nullptr:
/// reference kernels, the scalar loop).
struct QuantParams {
  quant::QuantRange range;
  const simd::Quant8* simd;
};

/// Clamp of the stored integers to the range precomputed at prepare, through the quant8 SIMD
/// family (`x < lo ? lo : (x > hi ? hi : x)` per element, as the scalar loop wrote it).
template <OperandType T>
Status kernel_quant(const NodeIO& io) {
  using E = element_t<T>;
  const auto& p = io.params<QuantParams>();
  const std::size_t n = static_cast<std::size_t>(io.input(0).dims.element_count());
  const E* in = io.in_data<T>(0);
  E* out = io.out_data<T>(0);
  const auto lo = static_cast<E>(p.range.min), hi = static_cast<E>(p.range.max);
  if (p.simd == nullptr)
    for (std::size_t i = 0; i < n; ++i) out[i] = in[i] < lo ? lo : (in[i] > hi ? hi : in[i]);
  else if constexpr (T == OperandType::TENSOR_QUANT8_ASYMM)
    p.simd->u8.clamp(in, out, n, lo, hi);
  else
    p.simd->s8.clamp(in, out, n, lo, hi);
  return {};
}

/// RELU (Act = RELU), RELU1 or RELU6: input rank <= 4, zero-sized tensors allowed.
template <FusedActivationFunc Act, const std::string_view& Name>
struct Family : KernelFamily {
  static constexpr auto types = kTypes;

  static Status infer(const NodeIO& io) { return elementwise::infer_same_shape(io, Name, 4); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO& io, KernelPrepare& prepare) {
    if constexpr (T == OperandType::TENSOR_FLOAT32) {
      if (prepare.reference) return &kernel_float<T, Act>;
      prepare.store(simd_params(simd::activation_f32()));
      return &kernel_f32<Act>;
    } else if constexpr (T == OperandType::TENSOR_FLOAT16) {
      return &kernel_float<T, Act>;
    } else {
      NNHAL_TRY(elementwise::require_input_quant(io, Name));
      const auto storage = quant::storage_range<element_t<T>>();
      const RtOperand& in = io.input(0);
      prepare.store(QuantParams{quant::activation_range(Act, in.scale, in.zero_point, storage.min, storage.max),
                                prepare.reference ? nullptr : &simd::quant8()});
      return &kernel_quant<T>;
    }
  }
};

}  // namespace nnhal::kernels::relu
