#pragma once
/// \file
/// SQUEEZE kernels (the row: nnhal/ops/squeeze.hpp): shape inference and one byte-copying
/// kernel for every type.

#include <array>
#include <cstddef>
#include <cstdint>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/same_bytes.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/squeeze.hpp"

namespace nnhal::kernels::squeeze {

/// Drops the listed axes (negative and repeated entries allowed), or every size-1 axis when the
/// axes input is omitted; squeezing every axis gives [1]. Errors: rank above 4, an axis out of
/// range, a listed axis whose size is not 1.
inline Status infer(const NodeIO& io) {
  const Dims& in = io.input(0).dims;
  const std::size_t rank = in.rank();
  if (rank > 4) return NNHAL_INVALID("input rank %zu is above 4", rank);
  AxisSet drop;
  if (io.has_input(1)) {
    auto axes = read_axes(io, 1, rank);
    if (!axes) return std::move(axes.error());
    drop = *axes;
    for (std::size_t k = 0; k < rank; ++k)
      if (drop.on[k] && in[k] != 1)
        return NNHAL_INVALID("axis %zu has size %" PRIu32 ", not 1", k, in[k]);
  } else {
    for (std::size_t k = 0; k < rank; ++k) drop.on[k] = in[k] == 1;
  }
  return set_output(io, 0, reduced_dims(in, drop, false));
}

/// SQUEEZE copies bytes, so one kernel serves every data type.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_QUANT8_ASYMM,
                                    OperandType::TENSOR_FLOAT16, OperandType::TENSOR_QUANT8_ASYMM_SIGNED};
  static Status infer(const NodeIO& io) { return squeeze::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &copy_input_bytes;
  }
};

}  // namespace nnhal::kernels::squeeze

namespace nnhal {

template <>
struct Kernels<OperationType::SQUEEZE> : kernels::squeeze::Family {};
static_assert(kernels_cover_row<OperationType::SQUEEZE>());

}  // namespace nnhal
