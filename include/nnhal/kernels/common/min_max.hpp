#pragma once
/// \file
/// The kernels of MAXIMUM and MINIMUM: the larger / smaller of two broadcast operands, for
/// FLOAT32, FLOAT16, TENSOR_INT32 and both quant8 types. Quantized inputs may each have their own
/// quantization: both are requantized to the output's first, as the reference does.

#include <algorithm>
#include <array>
#include <cstddef>
#include <string_view>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/broadcast.hpp"
#include "nnhal/kernels/common/quantization.hpp"
#include "nnhal/kernels/kernel.hpp"

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
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &kernel<Min, T>;
  }
};

}  // namespace nnhal::kernels::min_max
