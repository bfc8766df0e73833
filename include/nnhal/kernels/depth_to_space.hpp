#pragma once
/// \file
/// DEPTH_TO_SPACE kernels (the row: nnhal/ops/depth_to_space.hpp): shape inference and one
/// byte-moving kernel for every type, NHWC or NCHW.

#include <array>
#include <cstddef>
#include <cstdint>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/block_copy.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/depth_to_space.hpp"

namespace nnhal::kernels::depth_to_space {

/// [b, h, w, d] -> [b, h*bs, w*bs, d/(bs*bs)] (in the layout of input 2). Errors: rank not 4,
/// block_size not positive, a depth bs*bs does not divide, an output dimension that overflows.
inline Status infer(const NodeIO& io) {
  const Dims& in = io.input(0).dims;
  if (in.rank() != 4) return NNHAL_INVALID("input must have rank 4, it has %zu", in.rank());
  const std::int32_t bs = io.scalar<OperandType::INT32>(1);
  if (bs <= 0) return NNHAL_INVALID("block_size %" PRId32 " is not positive", bs);
  const bool nchw = layout_nchw(io, 2);
  const Image img = Image::of(in, nchw);
  const auto b = static_cast<std::uint64_t>(bs);
  if (img.c % (b * b) != 0) return NNHAL_INVALID("depth %zu is not divisible by block_size^2 = %llu", img.c,
                                                 static_cast<unsigned long long>(b * b));
  auto h = checked_dim(img.h * b, "output height");
  if (!h) return std::move(h.error());
  auto w = checked_dim(img.w * b, "output width");
  if (!w) return std::move(w.error());
  return set_output(io, 0, Image::of(img.n, *h, *w, img.c / (b * b), nchw).dims(nchw));
}

/// One strided block copy over (batch, y, block row, x, block column, channel): input depth
/// index (block row * bs + block column) * out_depth + channel, as the reference orders it.
inline Status kernel(const NodeIO& io) {
  const bool nchw = layout_nchw(io, 2);
  const RtOperand& in = io.input(0);
  const RtOperand& out = io.output(0);
  const Image s = Image::of(in.dims, nchw);
  const Image d = Image::of(out.dims, nchw);
  const auto bs = static_cast<std::size_t>(io.scalar<OperandType::INT32>(1));
  const auto B = static_cast<std::ptrdiff_t>(bs), C = static_cast<std::ptrdiff_t>(d.c);
  CopyPlan plan;
  plan.add(s.n, s.sn, d.sn);
  plan.add(s.h, s.sh, B * d.sh);
  plan.add(bs, B * C * s.sc, d.sh);
  plan.add(s.w, s.sw, B * d.sw);
  plan.add(bs, C * s.sc, d.sw);
  plan.add(d.c, s.sc, d.sc);
  strided_copy(out.data, in.data, plan, element_size(in.type));
  return {};
}

/// DEPTH_TO_SPACE moves bytes, so one kernel serves every data type.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_QUANT8_ASYMM,
                                    OperandType::TENSOR_FLOAT16, OperandType::TENSOR_QUANT8_ASYMM_SIGNED};
  static Status infer(const NodeIO& io) { return depth_to_space::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &kernel;
  }
};

}  // namespace nnhal::kernels::depth_to_space

namespace nnhal {

template <>
struct Kernels<OperationType::DEPTH_TO_SPACE> : kernels::depth_to_space::Family {};
static_assert(kernels_cover_row<OperationType::DEPTH_TO_SPACE>());

}  // namespace nnhal
