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
  auto axis = resolve_axis(io.scalar<OperandType::INT32>(1), in.rank(), "");
  if (!axis) return std::move(axis.error());
  AxisSet set;
  set.on[*axis] = true;
  set.count = 1;
  return set_output(io, 0, reduced_dims(in, set, false));
}

/// For each outer index, the running best of a block of inner positions over the axis, kept
/// in registers / stack (values and indices): rows of the axis are scanned in memory order and
/// the innermost loop is contiguous. The first occurrence wins ties, as in the reference
/// (strict comparison). An empty axis gives index 0.
template <OperandType T, bool Max>
Status kernel(const NodeIO& io) {
  using E = element_t<T>;
  using W = decltype(widen(E{}));
  constexpr std::size_t kBlock = 64;
  const RtOperand& in = io.input(0);
  auto axis = resolve_axis(io.scalar<OperandType::INT32>(1), in.dims.rank(), "");
  if (!axis) return std::move(axis.error());
  const std::size_t outer = dims_product(in.dims, 0, *axis);
  const std::size_t size = in.dims[*axis];
  const std::size_t inner = dims_product(in.dims, *axis + 1, in.dims.rank());
  const E* src = io.in_data<T>(0);
  std::int32_t* dst = io.out_data<OperandType::TENSOR_INT32>(0);
  if (inner == 1) {  // the last axis: each output scans one contiguous row
    for (std::size_t o = 0; o < outer; ++o) {
      const E* row = src + o * size;
      W best = size == 0 ? W{} : widen(row[0]);
      std::int32_t at = 0;
      for (std::size_t a = 1; a < size; ++a) {
        const W v = widen(row[a]);
        if (Max ? v > best : v < best) {
          best = v;
          at = static_cast<std::int32_t>(a);
        }
      }
      dst[o] = at;
    }
    return {};
  }
  for (std::size_t o = 0; o < outer; ++o) {
    const E* slab = src + o * size * inner;
    std::int32_t* out = dst + o * inner;
    for (std::size_t c0 = 0; c0 < inner; c0 += kBlock) {
      const std::size_t n = inner - c0 < kBlock ? inner - c0 : kBlock;
      std::array<W, kBlock> best{};
      std::array<std::int32_t, kBlock> at{};
      for (std::size_t j = 0; j < n; ++j) best[j] = size == 0 ? W{} : widen(slab[c0 + j]);
      for (std::size_t a = 1; a < size; ++a) {
        const E* row = slab + a * inner + c0;
        for (std::size_t j = 0; j < n; ++j) {
          const W v = widen(row[j]);
          const bool better = Max ? v > best[j] : v < best[j];
          best[j] = better ? v : best[j];
          at[j] = better ? static_cast<std::int32_t>(a) : at[j];
        }
      }
      for (std::size_t j = 0; j < n; ++j) out[c0 + j] = at[j];
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
