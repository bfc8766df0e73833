#pragma once
/// \file
/// SPACE_TO_BATCH_ND kernels (the row: nnhal/ops/space_to_batch_nd.hpp): shape inference and
/// one kernel per element type, NHWC or NCHW; the padding is the logical zero.

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/block_copy.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/space_to_batch_nd.hpp"

namespace nnhal::kernels::space_to_batch_nd {

/// Block sizes and paddings (top, bottom, left, right) read from inputs 1 and 2.
struct Params {
  std::uint64_t bh, bw, top, bottom, left, right;
};

inline Expected<Params> params(const NodeIO& io) {
  const auto block = io.in<OperandType::TENSOR_INT32>(1);
  const auto pads = io.in<OperandType::TENSOR_INT32>(2);
  if (block.rank() != 1 || block.size() != 2) return NNHAL_INVALID("block_shape must be 1-D with 2 entries");
  if (block[0] < 1 || block[1] < 1)
    return NNHAL_INVALID("block_shape (%" PRId32 ", %" PRId32 ") must be >= 1", block[0], block[1]);
  if (pads.rank() != 2 || pads.dim(0) != 2 || pads.dim(1) != 2) return NNHAL_INVALID("paddings must have shape [2, 2]");
  for (std::size_t i = 0; i < 4; ++i)
    if (pads[i] < 0) return NNHAL_INVALID("paddings[%zu] = %" PRId32 " is negative", i, pads[i]);
  const auto u = [](std::int32_t v) { return static_cast<std::uint64_t>(v); };
  return Params{u(block[0]), u(block[1]), u(pads[0]), u(pads[1]), u(pads[2]), u(pads[3])};
}

/// [n, h, w, c] -> [bh*bw*n, (h+pads)/bh, (w+pads)/bw, c] (in the layout of input 3). Errors:
/// rank not 4, bad block_shape / paddings, padded sizes the blocks do not divide, overflow.
inline Status infer(const NodeIO& io) {
  const Dims& in = io.input(0).dims;
  if (in.rank() != 4) return NNHAL_INVALID("input must have rank 4, it has %zu", in.rank());
  auto p = params(io);
  if (!p) return std::move(p.error());
  const bool nchw = layout_nchw(io, 3);
  const Image img = Image::of(in, nchw);
  const std::uint64_t h = img.h + p->top + p->bottom, w = img.w + p->left + p->right;
  if (h % p->bh != 0 || w % p->bw != 0)
    return NNHAL_INVALID("padded height %llu / width %llu are not divisible by the block (%llu, %llu)",
                         static_cast<unsigned long long>(h), static_cast<unsigned long long>(w),
                         static_cast<unsigned long long>(p->bh), static_cast<unsigned long long>(p->bw));
  auto n = checked_dim(img.n * p->bh * p->bw, "output batch");
  if (!n) return std::move(n.error());
  auto oh = checked_dim(h / p->bh, "output height");
  if (!oh) return std::move(oh.error());
  auto ow = checked_dim(w / p->bw, "output width");
  if (!ow) return std::move(ow.error());
  return set_output(io, 0, Image::of(*n, *oh, *ow, img.c, nchw).dims(nchw));
}

/// First output position o with o * block + shift >= pad, and the end of those with
/// o * block + shift < pad + size, clamped to [0, out]: the outputs that read the input.
inline void valid_range(std::uint64_t shift, std::uint64_t block, std::uint64_t pad, std::uint64_t size,
                        std::uint64_t out, std::uint64_t& first, std::uint64_t& end) noexcept {
  first = shift >= pad ? 0 : (pad - shift + block - 1) / block;
  end = pad + size > shift ? (pad + size - shift + block - 1) / block : 0;
  if (end > out) end = out;
  if (first > end) first = end;
}

/// Fills the output with the pad value, then one strided block copy per block position
/// (block row, block column) over (batch, y, x, channel).
template <OperandType T>
Status kernel(const NodeIO& io) {
  using E = element_t<T>;
  auto p = params(io);
  if (!p) return std::move(p.error());
  const bool nchw = layout_nchw(io, 3);
  const RtOperand& in = io.input(0);
  const RtOperand& out = io.output(0);
  const Image s = Image::of(in.dims, nchw);
  const Image d = Image::of(out.dims, nchw);
  E zero{};
  if constexpr (is_quantized(T)) zero = static_cast<E>(out.zero_point);
  std::byte value[sizeof(E)];
  std::memcpy(value, &zero, sizeof(E));
  fill_elements(out.data, static_cast<std::size_t>(out.dims.element_count()), value, sizeof(E));
  constexpr auto elem = static_cast<std::ptrdiff_t>(sizeof(E));
  for (std::uint64_t sy = 0; sy < p->bh; ++sy) {
    std::uint64_t y0, y1;
    valid_range(sy, p->bh, p->top, s.h, d.h, y0, y1);
    for (std::uint64_t sx = 0; sx < p->bw; ++sx) {
      std::uint64_t x0, x1;
      valid_range(sx, p->bw, p->left, s.w, d.w, x0, x1);
      if (y0 == y1 || x0 == x1) continue;
      const auto iy = static_cast<std::ptrdiff_t>(y0 * p->bh + sy - p->top);
      const auto ix = static_cast<std::ptrdiff_t>(x0 * p->bw + sx - p->left);
      const auto batch = static_cast<std::ptrdiff_t>((sy * p->bw + sx) * s.n);
      const std::ptrdiff_t src = iy * s.sh + ix * s.sw;
      const std::ptrdiff_t dst = batch * d.sn + static_cast<std::ptrdiff_t>(y0) * d.sh + static_cast<std::ptrdiff_t>(x0) * d.sw;
      CopyPlan plan;
      plan.add(s.n, s.sn, d.sn);
      plan.add(y1 - y0, static_cast<std::ptrdiff_t>(p->bh) * s.sh, d.sh);
      plan.add(x1 - x0, static_cast<std::ptrdiff_t>(p->bw) * s.sw, d.sw);
      plan.add(s.c, s.sc, d.sc);
      strided_copy(out.data + dst * elem, in.data + src * elem, plan, sizeof(E));
    }
  }
  return {};
}

/// SPACE_TO_BATCH_ND's kernels, keyed by the input type (the pad value depends on it).
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_QUANT8_ASYMM,
                                    OperandType::TENSOR_FLOAT16, OperandType::TENSOR_QUANT8_ASYMM_SIGNED};
  static Status infer(const NodeIO& io) { return space_to_batch_nd::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &kernel<T>;
  }
};

}  // namespace nnhal::kernels::space_to_batch_nd

namespace nnhal {

template <>
struct Kernels<OperationType::SPACE_TO_BATCH_ND> : kernels::space_to_batch_nd::Family {};
static_assert(kernels_cover_row<OperationType::SPACE_TO_BATCH_ND>());

}  // namespace nnhal
