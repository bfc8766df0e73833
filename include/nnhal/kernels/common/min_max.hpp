#pragma once
/// \file
/// The kernels of MAXIMUM and MINIMUM: the larger / smaller of two broadcast operands, for
/// FLOAT32, FLOAT16, TENSOR_INT32 and both quant8 types. Quantized inputs may each have their own
/// quantization: both are requantized to the output's first, as the reference does. FLOAT32, and
/// quant8 inputs that share the output's quantization (where requantizing is the identity), run
/// the SIMD families chosen at prepare (nnhal/simd/activation_f32.hpp, nnhal/simd/quant8.hpp; bit
/// for bit the scalar kernel) when the operands have the same shape or one is a single element.

#include <algorithm>
#include <array>
#include <cstddef>
#include <string_view>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/broadcast.hpp"
#include "nnhal/kernels/common/quantization.hpp"
#include "nnhal/kernels/common/simd_params.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/simd/activation_f32.hpp"
#include "nnhal/simd/quant8.hpp"

namespace nnhal::kernels::min_max {

/// MAXIMUM (Min = false) or MINIMUM of two elements.
template <bool Min, class E>
E pick(E a, E b) noexcept {
  if constexpr (Min)
    return std::min(a, b);
  else
    return std::max(a, b);
}

template <bool Min, OperandType T>
Status kernel(const NodeIO& io) {
  const auto a = io.in<T>(0);
  const auto b = io.in<T>(1);
  const auto o = io.out<T>(0);
  broadcast_for_each(o.dims(), a.dims(), b.dims(), [&](std::size_t i, std::size_t ia, std::size_t ib) {
    if constexpr (T == OperandType::TENSOR_FLOAT16) {
      // std::min / std::max on the widened values, keeping the chosen operand's bits.
      const float x = static_cast<float>(a[ia]), y = static_cast<float>(b[ib]);
      o[i] = (Min ? y < x : x < y) ? b[ib] : a[ia];
    } else if constexpr (T == OperandType::TENSOR_QUANT8_ASYMM || T == OperandType::TENSOR_QUANT8_ASYMM_SIGNED) {
      using E = element_t<T>;
      const E x = quant::requantize<E>(a[ia], a.scale(), a.zero_point(), o.scale(), o.zero_point());
      const E y = quant::requantize<E>(b[ib], b.scale(), b.zero_point(), o.scale(), o.zero_point());
      o[i] = pick<Min>(x, y);
    } else {
      o[i] = pick<Min>(a[ia], b[ib]);
    }
  });
  return {};
}

/// Which operands are a single element when neither broadcasts otherwise (flat SIMD layouts).
struct FlatLayout {
  bool ok;  ///< same shape or a single-element operand
  bool a_scalar, b_scalar;
  std::size_t n;
};

inline FlatLayout flat_layout(const NodeIO& io) noexcept {
  const auto n = static_cast<std::size_t>(io.output(0).dims.element_count());
  const auto na = static_cast<std::size_t>(io.input(0).dims.element_count());
  const auto nb = static_cast<std::size_t>(io.input(1).dims.element_count());
  const bool a_scalar = na == 1 && n != 1, b_scalar = nb == 1 && n != 1;
  return {(na == n || a_scalar) && (nb == n || b_scalar), a_scalar, b_scalar, n};
}

/// FLOAT32: the SIMD family chosen at prepare for the flat layouts, else `kernel`.
template <bool Min>
Status kernel_f32(const NodeIO& io) {
  constexpr OperandType F32 = OperandType::TENSOR_FLOAT32;
  const FlatLayout l = flat_layout(io);
  if (!l.ok) return kernel<Min, F32>(io);
  if (l.n == 0) return {};
  io.params<SimdParams<simd::ActivationF32>>().simd->min_max(Min, io.in_data<F32>(0), l.a_scalar, io.in_data<F32>(1),
                                                             l.b_scalar, io.out_data<F32>(0), l.n);
  return {};
}

/// Quant8 inputs with the output's quantization: the quant8 SIMD family chosen at prepare for
/// the flat layouts, else `kernel` (whose requantization is then the identity).
template <bool Min, OperandType T>
Status kernel_quant_same(const NodeIO& io) {
  const FlatLayout l = flat_layout(io);
  if (!l.ok) return kernel<Min, T>(io);
  if (l.n == 0) return {};
  const simd::Quant8& k = *io.params<SimdParams<simd::Quant8>>().simd;
  if constexpr (T == OperandType::TENSOR_QUANT8_ASYMM)
    k.u8.min_max(Min, io.in_data<T>(0), l.a_scalar, io.in_data<T>(1), l.b_scalar, io.out_data<T>(0), l.n);
  else
    k.s8.min_max(Min, io.in_data<T>(0), l.a_scalar, io.in_data<T>(1), l.b_scalar, io.out_data<T>(0), l.n);
  return {};
}

/// True when requantizing from `in` to `out` leaves every stored value unchanged: the same scale
/// and zero point, and a scale small enough that (q - zeroPoint) * scale cannot overflow float.
inline bool same_quant(const RtOperand& in, const RtOperand& out) noexcept {
  return in.scale == out.scale && in.zero_point == out.zero_point && out.scale > 0.0f && out.scale < 1e30f;
}

/// MAXIMUM or MINIMUM (named Name).
template <bool Min, const std::string_view& Name>
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                                    OperandType::TENSOR_INT32, OperandType::TENSOR_QUANT8_ASYMM,
                                    OperandType::TENSOR_QUANT8_ASYMM_SIGNED};

  static Status infer(const NodeIO& io) {
    auto shape = broadcast_shape(io.input(0).dims, io.input(1).dims);
    if (!shape) return std::move(shape.error().prefix("%s", Name.data()));
    io.output(0).dims = *shape;
    io.output(0).rank_known = true;
    return {};
  }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO& io, KernelPrepare& prepare) {
    if constexpr (T == OperandType::TENSOR_FLOAT32) {
      if (prepare.reference) return &kernel<Min, T>;
      prepare.store(simd_params(simd::activation_f32()));
      return &kernel_f32<Min>;
    } else if constexpr (T == OperandType::TENSOR_QUANT8_ASYMM || T == OperandType::TENSOR_QUANT8_ASYMM_SIGNED) {
      if (!prepare.reference && same_quant(io.input(0), io.output(0)) && same_quant(io.input(1), io.output(0))) {
        prepare.store(simd_params(simd::quant8()));
        return &kernel_quant_same<Min, T>;
      }
      return &kernel<Min, T>;
    } else {
      return &kernel<Min, T>;
    }
  }
};

}  // namespace nnhal::kernels::min_max
