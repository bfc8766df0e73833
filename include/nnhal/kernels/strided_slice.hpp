#pragma once
/// \file
/// STRIDED_SLICE kernels (the row: nnhal/ops/strided_slice.hpp): shape inference and one
/// byte-moving kernel for every type.

#include <array>
#include <cstddef>
#include <cstdint>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/block_copy.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/strided_slice.hpp"

namespace nnhal::kernels::strided_slice {

/// The selected positions of every input axis: first index, count and step.
struct Box {
  std::array<std::int64_t, kMaxRank> begin{};
  std::array<std::int64_t, kMaxRank> count{};
  std::array<std::int64_t, kMaxRank> stride{};
  std::array<bool, kMaxRank> shrink{};
};

/// Reference ClampedIndex (StridedSlice.cpp): an index clamped into the axis, negative indices
/// counted from the end; for a negative stride -1 stands for "before the first element".
constexpr std::int64_t clamped_index(std::int64_t index, std::int64_t dim, bool positive) noexcept {
  const auto remainder = [dim](std::int64_t v) { return (dim + v % dim) % dim; };
  if (positive) return index >= dim ? dim : remainder(index < -dim ? -dim : (index > dim ? dim : index));
  return index < -dim ? -1 : remainder(index < -dim ? -dim : (index > dim - 1 ? dim - 1 : index));
}

/// The box as the reference's prepare computes it: masked begin/end take the whole axis (in
/// the stride's direction), other indices are clamped; count = ceil((end - begin) / stride),
/// at least 0. Errors: rank above 4, begin/end/strides not 1-D of `rank` entries, a zero
/// stride, an empty axis, a shrunk axis with a negative stride or not exactly one element.
inline Expected<Box> box(const NodeIO& io) {
  const Dims& in = io.input(0).dims;
  const std::size_t rank = in.rank();
  if (rank > 4) return NNHAL_INVALID("input rank %zu is above 4", rank);
  const auto begin = io.in<OperandType::TENSOR_INT32>(1);
  const auto end = io.in<OperandType::TENSOR_INT32>(2);
  const auto strides = io.in<OperandType::TENSOR_INT32>(3);
  for (std::size_t i = 1; i <= 3; ++i) {
    const Dims& d = io.input(i).dims;
    if (d.rank() != 1 || d[0] != rank)
      return NNHAL_INVALID("input %zu (%s) must be 1-D with %zu entries", i, i == 1 ? "begin" : i == 2 ? "end" : "strides",
                           rank);
  }
  const std::int32_t begin_mask = io.scalar<OperandType::INT32>(4);
  const std::int32_t end_mask = io.scalar<OperandType::INT32>(5);
  const std::int32_t shrink_mask = io.scalar<OperandType::INT32>(6);
  Box b;
  for (std::size_t k = 0; k < rank; ++k) {
    const std::int64_t dim = in[k];
    const std::int64_t stride = strides[k];
    if (stride == 0) return NNHAL_INVALID("strides[%zu] is 0", k);
    if (dim == 0) return NNHAL_INVALID("axis %zu is empty", k);
    const bool positive = stride > 0;
    const std::uint32_t bit = 1u << k;
    const std::int64_t first = (static_cast<std::uint32_t>(begin_mask) & bit) != 0
                                   ? (positive ? 0 : dim - 1)
                                   : clamped_index(begin[k], dim, positive);
    const std::int64_t last = (static_cast<std::uint32_t>(end_mask) & bit) != 0 ? (positive ? dim : -1)
                                                                                 : clamped_index(end[k], dim, positive);
    const std::int64_t span = last - first;
    // ceil(span / stride) for either sign, then at least 0.
    std::int64_t count = span / stride + ((span % stride != 0 && ((span > 0) == positive)) ? 1 : 0);
    if (count < 0) count = 0;
    b.shrink[k] = (static_cast<std::uint32_t>(shrink_mask) & bit) != 0;
    if (b.shrink[k] && (!positive || count != 1))
      return NNHAL_INVALID("shrunk axis %zu must select exactly one element with a positive stride", k);
    b.begin[k] = first;
    b.count[k] = count;
    b.stride[k] = stride;
  }
  return b;
}

/// The counts of the axes that are not shrunk; all shrunk gives [1].
inline Status infer(const NodeIO& io) {
  auto b = box(io);
  if (!b) return std::move(b.error());
  Dims out;
  for (std::size_t k = 0; k < io.input(0).dims.rank(); ++k)
    if (!b->shrink[k]) out.push_back(static_cast<std::uint32_t>(b->count[k]));
  if (out.rank() == 0) out.push_back(1);
  return set_output(io, 0, out);
}

/// One strided block copy: axis k starts at begin[k] and steps by strides[k] input positions
/// (rows with memcpy when the innermost stride is 1).
inline Status kernel(const NodeIO& io) {
  auto b = box(io);
  if (!b) return std::move(b.error());
  const RtOperand& in = io.input(0);
  const RtOperand& out = io.output(0);
  const std::size_t rank = in.dims.rank();
  const auto src = row_major_strides(in.dims);
  // The output is written in order, so its strides follow the counts (shrunk axes count 1).
  std::array<std::ptrdiff_t, kMaxRank> dst{};
  std::ptrdiff_t n = 1;
  for (std::size_t k = rank; k-- > 0;) {
    dst[k] = n;
    n *= static_cast<std::ptrdiff_t>(b->count[k]);
  }
  if (static_cast<std::uint64_t>(n) != out.dims.element_count())
    return NNHAL_FAILURE("output has %llu elements, the slice %lld",
                         static_cast<unsigned long long>(out.dims.element_count()), static_cast<long long>(n));
  if (n == 0) return {};
  std::ptrdiff_t offset = 0;
  CopyPlan plan;
  for (std::size_t k = 0; k < rank; ++k) {
    offset += static_cast<std::ptrdiff_t>(b->begin[k]) * src[k];
    plan.add(static_cast<std::size_t>(b->count[k]), src[k] * static_cast<std::ptrdiff_t>(b->stride[k]), dst[k]);
  }
  const auto elem = static_cast<std::ptrdiff_t>(element_size(in.type));
  strided_copy(out.data, in.data + offset * elem, plan, static_cast<std::size_t>(elem));
  return {};
}

/// STRIDED_SLICE moves bytes, so one kernel serves every data type.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_QUANT8_ASYMM,
                                    OperandType::TENSOR_FLOAT16, OperandType::TENSOR_QUANT8_ASYMM_SIGNED};
  static Status infer(const NodeIO& io) { return strided_slice::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &kernel;
  }
};

}  // namespace nnhal::kernels::strided_slice

namespace nnhal {

template <>
struct Kernels<OperationType::STRIDED_SLICE> : kernels::strided_slice::Family {};
static_assert(kernels_cover_row<OperationType::STRIDED_SLICE>());

}  // namespace nnhal
