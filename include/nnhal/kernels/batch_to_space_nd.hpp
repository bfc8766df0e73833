#pragma once
/// \file
/// BATCH_TO_SPACE_ND kernels (the row: nnhal/ops/batch_to_space_nd.hpp): shape inference and
/// one byte-moving kernel for every type, NHWC or NCHW.

#include <array>
#include <cstddef>
#include <cstdint>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/block_copy.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/batch_to_space_nd.hpp"

namespace nnhal::kernels::batch_to_space_nd {

/// [bh*bw*n, h, w, c] -> [n, h*bh, w*bw, c] (in the layout of input 2). Errors: rank not 4,
/// block_shape not 1-D [2] or below 1, a batch bh*bw does not divide, an overflowing dimension.
inline Status infer(const NodeIO& io) {
  const Dims& in = io.input(0).dims;
  if (in.rank() != 4) return NNHAL_INVALID("input must have rank 4, it has %zu", in.rank());
  const auto block = io.in<OperandType::TENSOR_INT32>(1);
  if (block.rank() != 1 || block.size() != 2) return NNHAL_INVALID("block_shape must be 1-D with 2 entries");
  if (block[0] < 1 || block[1] < 1)
    return NNHAL_INVALID("block_shape (%" PRId32 ", %" PRId32 ") must be >= 1", block[0], block[1]);
  const bool nchw = layout_nchw(io, 2);
  const Image img = Image::of(in, nchw);
  const auto bh = static_cast<std::uint64_t>(block[0]), bw = static_cast<std::uint64_t>(block[1]);
  if (img.n % (bh * bw) != 0)
    return NNHAL_INVALID("batch %zu is not divisible by the block size %llu", img.n,
                         static_cast<unsigned long long>(bh * bw));
  auto h = checked_dim(img.h * bh, "output height");
  if (!h) return std::move(h.error());
  auto w = checked_dim(img.w * bw, "output width");
  if (!w) return std::move(w.error());
  return set_output(io, 0, Image::of(img.n / (bh * bw), *h, *w, img.c, nchw).dims(nchw));
}

/// One strided block copy over (block row, block column, batch, y, x, channel): input batch
/// (block row * bw + block column) * out_batch + batch, as the reference orders it.
inline Status kernel(const NodeIO& io) {
  const bool nchw = layout_nchw(io, 2);
  const RtOperand& in = io.input(0);
  const RtOperand& out = io.output(0);
  const Image s = Image::of(in.dims, nchw);
  const Image d = Image::of(out.dims, nchw);
  const auto block = io.in<OperandType::TENSOR_INT32>(1);
  const auto bh = static_cast<std::size_t>(block[0]), bw = static_cast<std::size_t>(block[1]);
  const auto BH = static_cast<std::ptrdiff_t>(bh), BW = static_cast<std::ptrdiff_t>(bw),
             N = static_cast<std::ptrdiff_t>(d.n);
  CopyPlan plan;
  plan.add(bh, BW * N * s.sn, d.sh);
  plan.add(bw, N * s.sn, d.sw);
  plan.add(d.n, s.sn, d.sn);
  plan.add(s.h, s.sh, BH * d.sh);
  plan.add(s.w, s.sw, BW * d.sw);
  plan.add(s.c, s.sc, d.sc);
  strided_copy(out.data, in.data, plan, element_size(in.type));
  return {};
}

/// BATCH_TO_SPACE_ND moves bytes, so one kernel serves every data type.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_QUANT8_ASYMM,
                                    OperandType::TENSOR_FLOAT16, OperandType::TENSOR_QUANT8_ASYMM_SIGNED};
  static Status infer(const NodeIO& io) { return batch_to_space_nd::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &kernel;
  }
};

}  // namespace nnhal::kernels::batch_to_space_nd

namespace nnhal {

template <>
struct Kernels<OperationType::BATCH_TO_SPACE_ND> : kernels::batch_to_space_nd::Family {};
static_assert(kernels_cover_row<OperationType::BATCH_TO_SPACE_ND>());

}  // namespace nnhal
