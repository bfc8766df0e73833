#pragma once
/// \file
/// The kernels of RELU, RELU1 and RELU6: a clamp of each element, on float values or, for the
/// quantized types, on the stored integers (the bounds quantized with the input's parameters,
/// as the reference's CalculateActivationRange does; the output keeps the input's quantization).

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "nnhal/kernels/common/activation.hpp"
#include "nnhal/kernels/common/elementwise.hpp"
#include "nnhal/kernels/common/quantization.hpp"

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

/// Clamp of the stored integers to the range precomputed at prepare.
template <OperandType T>
Status kernel_quant(const NodeIO& io) {
  using E = element_t<T>;
  const auto& range = io.params<quant::QuantRange>();
  const std::size_t n = static_cast<std::size_t>(io.input(0).dims.element_count());
  const E* in = io.in_data<T>(0);
  E* out = io.out_data<T>(0);
  const auto lo = static_cast<E>(range.min), hi = static_cast<E>(range.max);
  for (std::size_t i = 0; i < n; ++i) out[i] = in[i] < lo ? lo : (in[i] > hi ? hi : in[i]);
  return {};
}

/// RELU (Act = RELU), RELU1 or RELU6: input rank <= 4, zero-sized tensors allowed.
template <FusedActivationFunc Act, const std::string_view& Name>
struct Family : KernelFamily {
  static constexpr auto types = kTypes;

  static Status infer(const NodeIO& io) { return elementwise::infer_same_shape(io, Name, 4); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO& io, KernelPrepare& prepare) {
    if constexpr (T == OperandType::TENSOR_FLOAT32 || T == OperandType::TENSOR_FLOAT16) {
      return &kernel_float<T, Act>;
    } else {
      NNHAL_TRY(elementwise::require_input_quant(io, Name));
      const auto storage = quant::storage_range<element_t<T>>();
      const RtOperand& in = io.input(0);
      prepare.store(quant::activation_range(Act, in.scale, in.zero_point, storage.min, storage.max));
      return &kernel_quant<T>;
    }
  }
};

}  // namespace nnhal::kernels::relu
