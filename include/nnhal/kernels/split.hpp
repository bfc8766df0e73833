#pragma once
/// \file
/// SPLIT kernels (the row: nnhal/ops/split.hpp): shape inference and one byte-moving kernel for
/// every type.

#include <array>
#include <cstddef>
#include <cstdint>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/copy.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/split.hpp"

namespace nnhal::kernels::split {

/// Every output is the input with the axis divided by num_splits. Errors: the axis out of
/// range, num_splits not positive or not the number of outputs, an axis size it does not divide.
inline Status infer(const NodeIO& io) {
  const Dims& in = io.input(0).dims;
  auto axis = resolve_axis(io.scalar<OperandType::INT32>(1), in.rank(), "");
  if (!axis) return std::move(axis.error());
  const std::int32_t n = io.scalar<OperandType::INT32>(2);
  if (n <= 0 || static_cast<std::size_t>(n) != io.output_count())
    return NNHAL_INVALID("num_splits is %" PRId32 ", the operation has %zu outputs", n,
                         io.output_count());
  if (in[*axis] % static_cast<std::uint32_t>(n) != 0)
    return NNHAL_INVALID("axis %zu of size %" PRIu32 " does not split into %" PRId32 " parts",
                         *axis, in[*axis], n);
  Dims out = in;
  out[*axis] = in[*axis] / static_cast<std::uint32_t>(n);
  for (std::size_t i = 0; i < io.output_count(); ++i) NNHAL_TRY(set_output(io, i, out));
  return {};
}

/// For each outer index, one slab copy per output.
inline Status kernel(const NodeIO& io) {
  const RtOperand& in = io.input(0);
  auto axis = resolve_axis(io.scalar<OperandType::INT32>(1), in.dims.rank(), "");
  if (!axis) return std::move(axis.error());
  const std::size_t outer = dims_product(in.dims, 0, *axis);
  const std::size_t slab = dims_product(io.output(0).dims, *axis, in.dims.rank()) * element_size(in.type);
  const std::byte* src = in.data;
  for (std::size_t o = 0; o < outer; ++o)
    for (std::size_t i = 0; i < io.output_count(); ++i, src += slab) copy_bytes(io.output(i).data + o * slab, src, slab);
  return {};
}

/// SPLIT moves bytes, so one kernel serves every data type.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT16, OperandType::TENSOR_FLOAT32,
                                    OperandType::TENSOR_INT32, OperandType::TENSOR_QUANT8_ASYMM,
                                    OperandType::TENSOR_QUANT8_ASYMM_SIGNED};
  static Status infer(const NodeIO& io) { return split::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &kernel;
  }
};

}  // namespace nnhal::kernels::split

namespace nnhal {

template <>
struct Kernels<OperationType::SPLIT> : kernels::split::Family {};
static_assert(kernels_cover_row<OperationType::SPLIT>());

}  // namespace nnhal
