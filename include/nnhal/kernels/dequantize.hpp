#pragma once
/// \file
/// DEQUANTIZE kernels (the row: nnhal/ops/dequantize.hpp): `(q - zeroPoint) * scale` from
/// TENSOR_QUANT8_ASYMM, _ASYMM_SIGNED, _SYMM or _SYMM_PER_CHANNEL (the scale of each element's
/// channel) to FLOAT32 or FLOAT16 (the float product rounded once). Input rank <= 4; zero-sized
/// tensors allowed. TENSOR_QUANT8_ASYMM, _ASYMM_SIGNED and _SYMM to FLOAT32 run the quant8 SIMD
/// family chosen at prepare (nnhal/simd/quant8.hpp, bit for bit `kernel`).

#include <array>
#include <cstddef>
#include <cstdint>

#include "nnhal/kernels/common/elementwise.hpp"
#include "nnhal/kernels/common/simd_params.hpp"
#include "nnhal/ops/dequantize.hpp"
#include "nnhal/simd/quant8.hpp"

namespace nnhal::kernels::dequantize {

template <OperandType Out>
void store(element_t<Out>* out, std::size_t i, float v) noexcept {
  if constexpr (Out == OperandType::TENSOR_FLOAT16)
    out[i] = Half(v);
  else
    out[i] = v;
}

template <OperandType In, OperandType Out>
Status kernel(const NodeIO& io) {
  const RtOperand& in = io.input(0);
  const std::size_t n = static_cast<std::size_t>(in.dims.element_count());
  const element_t<In>* q = io.in_data<In>(0);
  element_t<Out>* out = io.out_data<Out>(0);
  const float scale = in.scale;
  const std::int32_t zero_point = in.zero_point;
  for (std::size_t i = 0; i < n; ++i)
    store<Out>(out, i, scale * static_cast<float>(static_cast<std::int32_t>(q[i]) - zero_point));
  return {};
}

/// Per-tensor 8-bit input to FLOAT32 through the quant8 SIMD family chosen at prepare.
template <OperandType In>
Status kernel_f32(const NodeIO& io) {
  const RtOperand& in = io.input(0);
  const std::size_t n = static_cast<std::size_t>(in.dims.element_count());
  const simd::Quant8& k = *io.params<SimdParams<simd::Quant8>>().simd;
  float* out = io.out_data<OperandType::TENSOR_FLOAT32>(0);
  if constexpr (In == OperandType::TENSOR_QUANT8_ASYMM)
    k.u8.dequantize(io.in_data<In>(0), out, n, in.scale, in.zero_point);
  else
    k.s8.dequantize(io.in_data<In>(0), out, n, in.scale, in.zero_point);
  return {};
}

/// Per-channel input: element i uses the scale of its index along channelDim.
template <OperandType Out>
Status kernel_per_channel(const NodeIO& io) {
  const RtOperand& in = io.input(0);
  if (in.channel_quant == nullptr || in.channel_quant->channelDim >= in.dims.rank() ||
      in.channel_quant->scales.size() != in.dims[in.channel_quant->channelDim])
    return NNHAL_INVALID("DEQUANTIZE per-channel input: channelDim or scales do not match the shape");
  const std::size_t channel_dim = in.channel_quant->channelDim;
  std::size_t stride = 1;
  for (std::size_t d = in.dims.rank(); d-- > channel_dim + 1;) stride *= in.dims[d];
  const std::size_t channels = in.dims[channel_dim];
  const float* scales = in.channel_quant->scales.data();
  const std::size_t n = static_cast<std::size_t>(in.dims.element_count());
  const std::int8_t* q = io.in_data<OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL>(0);
  element_t<Out>* out = io.out_data<Out>(0);
  for (std::size_t i = 0; i < n; ++i)
    store<Out>(out, i, scales[(i / stride) % channels] * static_cast<float>(static_cast<std::int32_t>(q[i]) - in.zero_point));
  return {};
}

/// DEQUANTIZE's kernels, keyed by the quantized input type; the output type picks the kernel.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_SYMM,
                                    OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL,
                                    OperandType::TENSOR_QUANT8_ASYMM_SIGNED};

  static Status infer(const NodeIO& io) { return elementwise::infer_same_shape(io, "DEQUANTIZE", 4); }

  template <OperandType T, OperandType Out>
  static KernelFn kernel_for() noexcept {
    if constexpr (T == OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL)
      return &kernel_per_channel<Out>;
    else
      return &kernel<T, Out>;
  }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO& io, KernelPrepare& prepare) {
    if constexpr (T != OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL) {
      if (io.output(0).type == OperandType::TENSOR_FLOAT32 && !prepare.reference) {
        prepare.store(simd_params(simd::quant8()));
        return &kernel_f32<T>;
      }
    }
    switch (io.output(0).type) {
      case OperandType::TENSOR_FLOAT32: return kernel_for<T, OperandType::TENSOR_FLOAT32>();
      case OperandType::TENSOR_FLOAT16: return kernel_for<T, OperandType::TENSOR_FLOAT16>();
      default: break;
    }
    return NNHAL_FAILURE("DEQUANTIZE has no kernel to %s", to_string(io.output(0).type).data());
  }
};

}  // namespace nnhal::kernels::dequantize

namespace nnhal {

template <>
struct Kernels<OperationType::DEQUANTIZE> : kernels::dequantize::Family {};
static_assert(kernels_cover_row<OperationType::DEQUANTIZE>());

}  // namespace nnhal
