#pragma once
/// \file
/// PRELU kernels (the row: nnhal/ops/prelu.hpp): `x >= 0 ? x : alpha * x` with alpha broadcast
/// against the input, over FLOAT32, FLOAT16 (computed in float) and both quant8 types (the
/// reference's two requantizations: input scale / output scale for x >= 0, input scale * alpha
/// scale / output scale below; the output may have its own quantization).

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/broadcast.hpp"
#include "nnhal/kernels/common/quantization.hpp"
#include "nnhal/kernels/kernel.hpp"
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
    if constexpr (T == OperandType::TENSOR_FLOAT32 || T == OperandType::TENSOR_FLOAT16) {
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
