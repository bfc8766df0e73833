#pragma once
/// \file
/// SPACE_TO_DEPTH kernels (the row: nnhal/ops/space_to_depth.hpp): shape inference and one
/// byte-moving kernel for every type, NHWC or NCHW.

#include <array>
#include <cstddef>
#include <cstdint>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/block_copy.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/space_to_depth.hpp"

namespace nnhal::kernels::space_to_depth {

/// [b, h, w, d] -> [b, h/bs, w/bs, d*bs*bs] (in the layout of input 2). Errors: rank not 4,
/// block_size not positive, a height or width it does not divide, a depth that overflows.
inline Status infer(const NodeIO& io) {
  const Dims& in = io.input(0).dims;
  if (in.rank() != 4) return NNHAL_INVALID("input must have rank 4, it has %zu", in.rank());
  const std::int32_t bs = io.scalar<OperandType::INT32>(1);
  if (bs <= 0) return NNHAL_INVALID("block_size %" PRId32 " is not positive", bs);
  const bool nchw = layout_nchw(io, 2);
  const Image img = Image::of(in, nchw);
  const auto b = static_cast<std::uint64_t>(bs);
  if (img.h % b != 0 || img.w % b != 0)
    return NNHAL_INVALID("height %zu and width %zu are not both divisible by block_size %" PRId32,
                         img.h, img.w, bs);
  auto c = checked_dim(img.c * b * b, "output depth");
  if (!c) return std::move(c.error());
  return set_output(io, 0, Image::of(img.n, img.h / b, img.w / b, *c, nchw).dims(nchw));
}

/// One strided block copy over (batch, y, block row, x, block column, channel): output depth
/// index (block row * bs + block column) * in_depth + channel, as the reference orders it.
inline Status kernel(const NodeIO& io) {
  const bool nchw = layout_nchw(io, 2);
  const RtOperand& in = io.input(0);
  const RtOperand& out = io.output(0);
  const Image s = Image::of(in.dims, nchw);
  const Image d = Image::of(out.dims, nchw);
  const auto bs = static_cast<std::size_t>(io.scalar<OperandType::INT32>(1));
  const auto B = static_cast<std::ptrdiff_t>(bs), C = static_cast<std::ptrdiff_t>(s.c);
  CopyPlan plan;
  plan.add(d.n, s.sn, d.sn);
  plan.add(d.h, B * s.sh, d.sh);
  plan.add(bs, s.sh, B * C * d.sc);
  plan.add(d.w, B * s.sw, d.sw);
  plan.add(bs, s.sw, C * d.sc);
  plan.add(s.c, s.sc, d.sc);
  strided_copy(out.data, in.data, plan, element_size(in.type));
  return {};
}

/// SPACE_TO_DEPTH moves bytes, so one kernel serves every data type.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_QUANT8_ASYMM,
                                    OperandType::TENSOR_FLOAT16, OperandType::TENSOR_QUANT8_ASYMM_SIGNED};
  static Status infer(const NodeIO& io) { return space_to_depth::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &kernel;
  }
};

}  // namespace nnhal::kernels::space_to_depth

namespace nnhal {

template <>
struct Kernels<OperationType::SPACE_TO_DEPTH> : kernels::space_to_depth::Family {};
static_assert(kernels_cover_row<OperationType::SPACE_TO_DEPTH>());

}  // namespace nnhal
