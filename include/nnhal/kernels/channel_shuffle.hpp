#pragma once
/// \file
/// CHANNEL_SHUFFLE kernels (the row: nnhal/ops/channel_shuffle.hpp): shape inference and one
/// byte-moving kernel for every type.

#include <array>
#include <cstddef>
#include <cstdint>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/block_copy.hpp"
#include "nnhal/kernels/common/copy.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/channel_shuffle.hpp"

namespace nnhal::kernels::channel_shuffle {

/// The axis, resolved, after the runtime checks: rank <= 4, num_groups positive and dividing
/// the axis size.
inline Expected<std::size_t> axis_of(const NodeIO& io) {
  const Dims& in = io.input(0).dims;
  if (in.rank() > 4) return NNHAL_INVALID("input rank %zu is above 4", in.rank());
  auto axis = resolve_axis(io.scalar<OperandType::INT32>(2), in.rank(), "");
  if (!axis) return std::move(axis.error());
  const std::int32_t groups = io.scalar<OperandType::INT32>(1);
  if (groups <= 0) return NNHAL_INVALID("num_groups %" PRId32 " is not positive", groups);
  if (in[*axis] % static_cast<std::uint32_t>(groups) != 0)
    return NNHAL_INVALID("axis %zu of size %" PRIu32 " is not divisible by num_groups %" PRId32,
                         *axis, in[*axis], groups);
  return axis;
}

/// Output shape = input shape.
inline Status infer(const NodeIO& io) {
  if (auto a = axis_of(io); !a) return std::move(a.error());
  return set_output(io, 0, io.input(0).dims);
}

/// One strided block copy over (outer, k, g, inner): out[k * groups + g] = in[g * size + k].
inline Status kernel(const NodeIO& io) {
  auto axis = axis_of(io);
  if (!axis) return std::move(axis.error());
  const RtOperand& in = io.input(0);
  const std::size_t groups = static_cast<std::size_t>(io.scalar<OperandType::INT32>(1));
  const std::size_t outer = dims_product(in.dims, 0, *axis);
  const std::size_t inner = dims_product(in.dims, *axis + 1, in.dims.rank());
  const std::size_t size = in.dims[*axis] / groups;
  const auto I = static_cast<std::ptrdiff_t>(inner), G = static_cast<std::ptrdiff_t>(groups),
             S = static_cast<std::ptrdiff_t>(size);
  CopyPlan plan;
  plan.add(outer, G * S * I, G * S * I);
  plan.add(size, I, G * I);
  plan.add(groups, S * I, I);
  plan.add(inner, 1, 1);
  strided_copy(io.output(0).data, in.data, plan, element_size(in.type));
  return {};
}

/// CHANNEL_SHUFFLE moves bytes, so one kernel serves every data type.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT16, OperandType::TENSOR_FLOAT32,
                                    OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_ASYMM_SIGNED};
  static Status infer(const NodeIO& io) { return channel_shuffle::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &kernel;
  }
};

}  // namespace nnhal::kernels::channel_shuffle

namespace nnhal {

template <>
struct Kernels<OperationType::CHANNEL_SHUFFLE> : kernels::channel_shuffle::Family {};
static_assert(kernels_cover_row<OperationType::CHANNEL_SHUFFLE>());

}  // namespace nnhal
