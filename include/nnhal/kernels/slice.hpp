#pragma once
/// \file
/// SLICE kernels (the row: nnhal/ops/slice.hpp): shape inference and one kernel per type.

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/copy.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/slice.hpp"

namespace nnhal::kernels::slice {

/// Output shape = the sizes (a -1 size runs to the end). Reference checks: the input has rank
/// >= 1, begin and size hold one entry per axis, 0 <= begin <= dim, size >= 0 after expanding
/// -1, begin + size <= dim.
inline Status infer(const NodeIO& io) {
  const RtOperand& in = io.input(0);
  const auto begin = io.in<OperandType::TENSOR_INT32>(1);
  const auto size = io.in<OperandType::TENSOR_INT32>(2);
  const std::size_t rank = in.dims.rank();
  if (rank == 0) return NNHAL_INVALID("input must have rank >= 1");
  if (begin.rank() != 1 || begin.size() != rank || size.rank() != 1 || size.size() != rank)
    return NNHAL_INVALID("begin and size must be 1-D with %zu entries", rank);
  Dims out;
  out.resize(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    const std::int64_t dim = in.dims[i];
    const std::int64_t b = begin[i];
    std::int64_t n = size[i];
    if (b < 0 || b > dim) return NNHAL_INVALID("begin[%zu] = %lld is outside [0, %lld]", i, static_cast<long long>(b), static_cast<long long>(dim));
    if (n == -1) n = dim - b;
    if (n < 0 || b + n > dim)
      return NNHAL_INVALID("size[%zu] = %lld does not fit axis %zu of size %lld from %lld", i,
                           static_cast<long long>(size[i]), i, static_cast<long long>(dim), static_cast<long long>(b));
    out[i] = static_cast<std::uint32_t>(n);
  }
  io.output(0).dims = out;
  return {};
}

/// Copies the selected box row by row (innermost axis contiguous); works on bytes, so one
/// kernel serves every element type.
inline Status kernel(const NodeIO& io) {
  const RtOperand& in = io.input(0);
  const RtOperand& out = io.output(0);
  const auto begin = io.in<OperandType::TENSOR_INT32>(1);
  const std::size_t rank = in.dims.rank();
  const std::size_t elem = element_size(in.type);
  if (out.dims.element_count() == 0) return {};
  std::array<std::size_t, kMaxRank> stride{}, idx{};
  stride[rank - 1] = elem;
  for (std::size_t k = rank - 1; k-- > 0;) stride[k] = stride[k + 1] * in.dims[k + 1];
  const std::size_t row = out.dims[rank - 1] * elem;
  const std::size_t rows = static_cast<std::size_t>(out.dims.element_count()) / out.dims[rank - 1];
  std::size_t base = 0;
  for (std::size_t k = 0; k < rank; ++k) base += static_cast<std::size_t>(begin[k]) * stride[k];
  std::byte* dst = out.data;
  for (std::size_t r = 0; r < rows; ++r) {
    std::size_t offset = base;
    for (std::size_t k = 0; k + 1 < rank; ++k) offset += idx[k] * stride[k];
    std::memcpy(dst, in.data + offset, row);
    dst += row;
    for (std::size_t k = rank - 1; k-- > 0;) {  // next row: advance the outer index with carry
      if (++idx[k] < out.dims[k]) break;
      idx[k] = 0;
    }
  }
  return {};
}

/// SLICE's kernel copies bytes, so one kernel serves every data type.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_INT32,
                                    OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_FLOAT16,
                                    OperandType::TENSOR_QUANT8_ASYMM_SIGNED};
  static Status infer(const NodeIO& io) { return slice::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &kernel;
  }
};

}  // namespace nnhal::kernels::slice

namespace nnhal {

template <>
struct Kernels<OperationType::SLICE> : kernels::slice::Family {};
static_assert(kernels_cover_row<OperationType::SLICE>());

}  // namespace nnhal
