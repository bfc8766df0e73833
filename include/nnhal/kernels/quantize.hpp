#pragma once
/// \file
/// QUANTIZE kernels (the row: nnhal/ops/quantize.hpp): `clamp(round(x / scale) + zeroPoint)` from
/// FLOAT32 or FLOAT16 (computed in float, as the reference does) to TENSOR_QUANT8_ASYMM or
/// TENSOR_QUANT8_ASYMM_SIGNED, with the output's quantization. Zero-sized tensors allowed.
/// FLOAT32 input runs the quant8 SIMD family chosen at prepare (nnhal/simd/quant8.hpp, bit for
/// bit `kernel`).

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "nnhal/kernels/common/elementwise.hpp"
#include "nnhal/kernels/common/simd_params.hpp"
#include "nnhal/ops/quantize.hpp"
#include "nnhal/simd/quant8.hpp"

namespace nnhal::kernels::quantize {

template <OperandType In, OperandType Out>
Status kernel(const NodeIO& io) {
  using E = element_t<Out>;
  const RtOperand& o = io.output(0);
  const float scale = o.scale;
  const auto zero_point = static_cast<float>(o.zero_point);
  constexpr auto lo = static_cast<float>(std::numeric_limits<E>::min());
  constexpr auto hi = static_cast<float>(std::numeric_limits<E>::max());
  const auto in = io.in<In>(0);
  E* out = io.out_data<Out>(0);
  const std::size_t n = in.size();
  for (std::size_t i = 0; i < n; ++i) {
    const float v = zero_point + std::round(static_cast<float>(in[i]) / scale);
    // The reference's order, max(lo, min(hi, v)): NaN ends up at hi, never in an undefined cast.
    out[i] = static_cast<E>(std::max<float>(lo, std::min<float>(hi, v)));
  }
  return {};
}

/// FLOAT32 input through the quant8 SIMD family chosen at prepare.
template <OperandType Out>
Status kernel_f32(const NodeIO& io) {
  const RtOperand& o = io.output(0);
  const std::size_t n = static_cast<std::size_t>(io.input(0).dims.element_count());
  const simd::Quant8& k = *io.params<SimdParams<simd::Quant8>>().simd;
  const float* in = io.in_data<OperandType::TENSOR_FLOAT32>(0);
  if constexpr (Out == OperandType::TENSOR_QUANT8_ASYMM)
    k.u8.quantize(in, io.out_data<Out>(0), n, o.scale, o.zero_point);
  else
    k.s8.quantize(in, io.out_data<Out>(0), n, o.scale, o.zero_point);
  return {};
}

/// QUANTIZE's kernels, keyed by the float input type; the output type picks the kernel.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16};

  static Status infer(const NodeIO& io) { return elementwise::infer_same_shape(io, "QUANTIZE"); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO& io, KernelPrepare& prepare) {
    if constexpr (T == OperandType::TENSOR_FLOAT32) {
      if (!prepare.reference) {  // reference kernels: the plain loop below
        prepare.store(simd_params(simd::quant8()));
        switch (io.output(0).type) {
          case OperandType::TENSOR_QUANT8_ASYMM: return &kernel_f32<OperandType::TENSOR_QUANT8_ASYMM>;
          case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: return &kernel_f32<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>;
          default: break;
        }
        return NNHAL_FAILURE("QUANTIZE has no kernel to %s", to_string(io.output(0).type).data());
      }
    }
    switch (io.output(0).type) {
      case OperandType::TENSOR_QUANT8_ASYMM: return &kernel<T, OperandType::TENSOR_QUANT8_ASYMM>;
      case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: return &kernel<T, OperandType::TENSOR_QUANT8_ASYMM_SIGNED>;
      default: break;
    }
    return NNHAL_FAILURE("QUANTIZE has no kernel to %s", to_string(io.output(0).type).data());
  }
};

}  // namespace nnhal::kernels::quantize

namespace nnhal {

template <>
struct Kernels<OperationType::QUANTIZE> : kernels::quantize::Family {};
static_assert(kernels_cover_row<OperationType::QUANTIZE>());

}  // namespace nnhal
