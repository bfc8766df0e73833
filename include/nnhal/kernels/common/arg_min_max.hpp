#pragma once
/// \file
/// ARGMAX and ARGMIN: the index of the largest / smallest value along an axis.

#include <array>
#include <cstddef>
#include <cstdint>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/copy.hpp"
#include "nnhal/kernels/common/reduce.hpp"

namespace nnhal::kernels::arg_min_max {

/// The input shape without the axis (a 1-D input gives [1]). Errors: the axis out of range.
inline Status infer(const NodeIO& io) {
  const Dims& in = io.input(0).dims;
  auto axis = resolve_axis(io.scalar<OperandType::INT32>(1), in.rank(), "axis");
  if (!axis) return std::move(axis.error());
  AxisSet set;
  set.on[*axis] = true;
  set.count = 1;
  return set_output(io, 0, reduced_dims(in, set, false));
}

/// For each outer index, the running best of every inner position over the axis: the first
/// occurrence wins ties, as in the reference (strict comparison). Rows of the axis are scanned
/// in memory order, the inner positions in the innermost loop. An empty axis gives index 0.
template <OperandType T, bool Max>
Status kernel(const NodeIO& io) {
  using E = element_t<T>;
  const RtOperand& in = io.input(0);
  auto axis = resolve_axis(io.scalar<OperandType::INT32>(1), in.dims.rank(), "axis");
  if (!axis) return std::move(axis.error());
  const std::size_t outer = dims_product(in.dims, 0, *axis);
  const std::size_t size = in.dims[*axis];
  const std::size_t inner = dims_product(in.dims, *axis + 1, in.dims.rank());
  const E* src = io.in_data<T>(0);
  std::int32_t* dst = io.out_data<OperandType::TENSOR_INT32>(0);
  for (std::size_t o = 0; o < outer; ++o, dst += inner) {
    const E* slab = src + o * size * inner;
    for (std::size_t i = 0; i < inner; ++i) dst[i] = 0;
    for (std::size_t a = 1; a < size; ++a) {
      const E* row = slab + a * inner;
      for (std::size_t i = 0; i < inner; ++i) {
        const auto v = widen(row[i]);
        const auto best = widen(slab[static_cast<std::size_t>(dst[i]) * inner + i]);
        if (Max ? v > best : v < best) dst[i] = static_cast<std::int32_t>(a);
      }
    }
  }
  return {};
}

/// The kernels of ARGMAX (Max) or ARGMIN, keyed by the input type.
template <bool Max>
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT16, OperandType::TENSOR_FLOAT32,
                                    OperandType::TENSOR_INT32, OperandType::TENSOR_QUANT8_ASYMM,
                                    OperandType::TENSOR_QUANT8_ASYMM_SIGNED};
  static Status infer(const NodeIO& io) { return arg_min_max::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &kernel<T, Max>;
  }
};

}  // namespace nnhal::kernels::arg_min_max
