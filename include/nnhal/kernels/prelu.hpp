#pragma once
/// \file
/// PRELU kernels (the row: nnhal/ops/prelu.hpp): `x >= 0 ? x : alpha * x` with alpha broadcast
/// against the input, over FLOAT32, FLOAT16 (computed in float) and both quant8 types (the
/// reference's two requantizations: input scale / output scale for x >= 0, input scale * alpha
/// scale / output scale below; the output may have its own quantization). FLOAT32 runs the SIMD
/// family chosen at prepare (nnhal/simd/activation_f32.hpp, bit for bit kernel_float) when alpha
/// is the same shape as the input, a scalar, or the input's innermost axes repeated; other
/// broadcasts take the element walk.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/broadcast.hpp"
#include "nnhal/kernels/common/quantization.hpp"
#include "nnhal/kernels/common/simd_params.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/simd/activation_f32.hpp"
#include "nnhal/ops/prelu.hpp"

namespace nnhal::kernels::prelu {

/// Output shape = broadcast of input and alpha.
inline Status infer(const NodeIO& io) {
  auto shape = broadcast_shape(io.input(0).dims, io.input(1).dims);
  if (!shape) return std::move(shape.error().prefix("PRELU"));
  io.output(0).dims = *shape;
  io.output(0).rank_known = true;
  return {};
}

template <OperandType T>
Status kernel_float(const NodeIO& io) {
  const auto x = io.in<T>(0);
  const auto alpha = io.in<T>(1);
  const auto o = io.out<T>(0);
  broadcast_for_each(o.dims(), x.dims(), alpha.dims(), [&](std::size_t i, std::size_t ix, std::size_t ia) {
    const float v = static_cast<float>(x[ix]);
    const float r = v >= 0.0f ? v : v * static_cast<float>(alpha[ia]);
    if constexpr (T == OperandType::TENSOR_FLOAT16)
      o[i] = Half(r);
    else
      o[i] = r;
  });
  return {};
}

/// How often alpha repeats along the input when the input has the output's element count and
/// alpha's shape, leading 1s dropped, is the input's innermost axes (1: a scalar alpha; the input's
/// element count: same shape); 0 for any other broadcast.
inline std::size_t alpha_period(const Dims& x, const Dims& alpha, const Dims& out) noexcept {
  if (x.element_count() != out.element_count()) return 0;
  std::size_t lead = 0;
  while (lead < alpha.rank() && alpha[lead] == 1) ++lead;
  const std::size_t inner = alpha.rank() - lead;
  if (inner > x.rank()) return 0;
  std::size_t period = 1;
  for (std::size_t j = 0; j < inner; ++j) {
    if (alpha[lead + j] != x[x.rank() - inner + j]) return 0;
    period *= alpha[lead + j];
  }
  return period;
}

/// FLOAT32: the SIMD family chosen at prepare where alpha repeats along the input
/// (alpha_period), else kernel_float.
inline Status kernel_f32(const NodeIO& io) {
  constexpr OperandType F32 = OperandType::TENSOR_FLOAT32;
  const std::size_t n = static_cast<std::size_t>(io.output(0).dims.element_count());
  if (n == 0) return {};
  const std::size_t period = alpha_period(io.input(0).dims, io.input(1).dims, io.output(0).dims);
  if (period == 0) return kernel_float<F32>(io);
  io.params<SimdParams<simd::ActivationF32>>().simd->prelu(io.in_data<F32>(0), io.in_data<F32>(1), period,
                                                           io.out_data<F32>(0), n);
  return {};
}

/// Node parameters of the quantized kernel.
struct QuantParams {
  std::int32_t input_offset, alpha_offset, output_offset;
  quant::Multiplier positive, negative;
};

/// The reference's multipliers; the scale products and quotients are formed in float first, as
/// there.
inline QuantParams make_params(const RtOperand& in, const RtOperand& alpha, const RtOperand& out) noexcept {
  QuantParams p{};
  p.input_offset = -in.zero_point;
  p.alpha_offset = -alpha.zero_point;
  p.output_offset = out.zero_point;
  const double input_product_scale = in.scale * alpha.scale;
  p.positive = quant::quantize_multiplier(static_cast<double>(in.scale / out.scale));
  p.negative = quant::quantize_multiplier(input_product_scale / static_cast<double>(out.scale));
  return p;
}

template <OperandType T>
Status kernel_quant(const NodeIO& io) {
  using E = element_t<T>;
  const auto& p = io.params<QuantParams>();
  const auto x = io.in<T>(0);
  const auto alpha = io.in<T>(1);
  const auto o = io.out<T>(0);
  broadcast_for_each(o.dims(), x.dims(), alpha.dims(), [&](std::size_t i, std::size_t ix, std::size_t ia) {
    const std::int32_t input = p.input_offset + static_cast<std::int32_t>(x[ix]);
    std::int32_t r;
    if (input >= 0) {
      r = p.output_offset + quant::multiply_by_quantized_multiplier(input, p.positive.value, p.positive.shift);
    } else {
      const std::int32_t a = p.alpha_offset + static_cast<std::int32_t>(alpha[ia]);
      r = p.output_offset + quant::multiply_by_quantized_multiplier(input * a, p.negative.value, p.negative.shift);
    }
    o[i] = static_cast<E>(std::clamp<std::int32_t>(r, std::numeric_limits<E>::min(), std::numeric_limits<E>::max()));
  });
  return {};
}

/// PRELU's kernels.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                                    OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_ASYMM_SIGNED};

  static Status infer(const NodeIO& io) { return prelu::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO& io, KernelPrepare& prepare) {
    if constexpr (T == OperandType::TENSOR_FLOAT32) {
      if (prepare.reference) return &kernel_float<T>;
      prepare.store(simd_params(simd::activation_f32()));
      return &kernel_f32;
    } else if constexpr (T == OperandType::TENSOR_FLOAT16) {
      return &kernel_float<T>;
    } else {
      prepare.store(make_params(io.input(0), io.input(1), io.output(0)));
      return &kernel_quant<T>;
    }
  }
};

}  // namespace nnhal::kernels::prelu

namespace nnhal {

template <>
struct Kernels<OperationType::PRELU> : kernels::prelu::Family {};
static_assert(kernels_cover_row<OperationType::PRELU>());

}  // namespace nnhal
