#pragma once
/// \file
/// TILE kernels (the row: nnhal/ops/tile.hpp): shape inference and one byte-moving kernel for
/// every type.

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/block_copy.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/tile.hpp"

namespace nnhal::kernels::tile {

/// `dim[i] * multiples[i]`. Errors: multiples not 1-D with one entry per axis, a negative
/// multiple, an output dimension or size that overflows.
inline Status infer(const NodeIO& io) {
  const Dims& in = io.input(0).dims;
  const auto m = io.in<OperandType::TENSOR_INT32>(1);
  if (m.rank() != 1 || m.size() != in.rank())
    return NNHAL_INVALID("multiples must be 1-D with %zu entries (the input rank)", in.rank());
  Dims out;
  for (std::size_t k = 0; k < in.rank(); ++k) {
    if (m[k] < 0) return NNHAL_INVALID("multiples[%zu] = %" PRId32 " is negative", k, m[k]);
    auto d = checked_dim(std::uint64_t{in[k]} * static_cast<std::uint64_t>(m[k]), "tiled axis");
    if (!d) return std::move(d.error());
    out.push_back(*d);
  }
  return set_output(io, 0, out);
}

struct Layout {
  std::size_t rank;
  std::array<std::size_t, kMaxRank> dim, times, src_stride, dst_stride;  // strides in bytes
};

/// Writes the tiling of the input block at axis k: the block's rows first (recursively), then
/// copies of the finished block, each one memcpy.
inline void tile_axis(const Layout& l, std::size_t k, const std::byte* src, std::byte* dst) noexcept {
  const std::size_t block = l.dim[k] * l.dst_stride[k];
  if (k + 1 == l.rank) {
    std::memcpy(dst, src, block);
  } else {
    for (std::size_t i = 0; i < l.dim[k]; ++i) tile_axis(l, k + 1, src + i * l.src_stride[k], dst + i * l.dst_stride[k]);
  }
  for (std::size_t r = 1; r < l.times[k]; ++r) std::memcpy(dst + r * block, dst, block);
}

inline Status kernel(const NodeIO& io) {
  const RtOperand& in = io.input(0);
  const RtOperand& out = io.output(0);
  if (out.dims.element_count() == 0) return {};
  const std::size_t elem = element_size(in.type);
  const auto m = io.in<OperandType::TENSOR_INT32>(1);
  Layout l{};
  l.rank = in.dims.rank();
  if (l.rank == 0) {
    std::memcpy(out.data, in.data, elem);
    return {};
  }
  const auto src = row_major_strides(in.dims);
  const auto dst = row_major_strides(out.dims);
  for (std::size_t k = 0; k < l.rank; ++k) {
    l.dim[k] = in.dims[k];
    l.times[k] = static_cast<std::size_t>(m[k]);
    l.src_stride[k] = static_cast<std::size_t>(src[k]) * elem;
    l.dst_stride[k] = static_cast<std::size_t>(dst[k]) * elem;
  }
  tile_axis(l, 0, in.data, out.data);
  return {};
}

/// TILE moves bytes, so one kernel serves every data type.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT16, OperandType::TENSOR_FLOAT32,
                                    OperandType::TENSOR_INT32, OperandType::TENSOR_QUANT8_ASYMM,
                                    OperandType::TENSOR_QUANT8_ASYMM_SIGNED};
  static Status infer(const NodeIO& io) { return tile::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &kernel;
  }
};

}  // namespace nnhal::kernels::tile

namespace nnhal {

template <>
struct Kernels<OperationType::TILE> : kernels::tile::Family {};
static_assert(kernels_cover_row<OperationType::TILE>());

}  // namespace nnhal
