#pragma once
/// \file
/// PAD and PAD_V2 (and the padding part of SPACE_TO_BATCH_ND's shape checks): the output shape
/// from a [rank, 2] paddings tensor, and the kernel that fills the output with the pad value and
/// copies the input block into it.

#include <array>
#include <cstddef>
#include <cstdint>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/block_copy.hpp"
#include "nnhal/kernels/common/copy.hpp"

namespace nnhal::kernels::pad_common {

/// Output shape `dim[i] + before[i] + after[i]`. Errors: input rank above 4, paddings not of
/// shape [rank, 2], a negative padding, a padded dimension that overflows.
inline Status infer(const NodeIO& io) {
  const Dims& in = io.input(0).dims;
  const std::size_t rank = in.rank();
  if (rank > 4) return NNHAL_INVALID("input rank %zu is above 4", rank);
  const auto pads = io.in<OperandType::TENSOR_INT32>(1);
  if (pads.rank() != 2 || pads.dim(0) != rank || pads.dim(1) != 2)
    return NNHAL_INVALID("paddings must have shape [%zu, 2]", rank);
  Dims out;
  for (std::size_t k = 0; k < rank; ++k) {
    const std::int32_t before = pads[2 * k], after = pads[2 * k + 1];
    if (before < 0 || after < 0)
      return NNHAL_INVALID("paddings of axis %zu are negative (%" PRId32 ", %" PRId32 ")", k,
                           before, after);
    auto d = checked_dim(std::uint64_t{in[k]} + static_cast<std::uint64_t>(before) + static_cast<std::uint64_t>(after),
                         "padded axis");
    if (!d) return std::move(d.error());
    out.push_back(*d);
  }
  return set_output(io, 0, out);
}

namespace detail {

/// Writes axis `k` and those after it of the padded block at `dst` from `src`: the `before`
/// slab of pad values, the input's positions (recursively; one memcpy when no later axis is
/// padded, the input block then being contiguous in both), the `after` slab. Every output byte
/// is written once, so the output is not filled first and then overwritten.
struct PadWalk {
  std::size_t rank = 0;
  std::size_t elem = 0;
  const std::byte* value = nullptr;
  std::array<std::size_t, kMaxRank> in{}, before{}, after{};
  std::array<std::size_t, kMaxRank> src{}, dst{};  // row-major strides in elements
  std::array<bool, kMaxRank + 1> padded_after{};   // some axis >= k is padded

  void run(std::size_t k, std::byte* d, const std::byte* s) const noexcept {
    fill_elements(d, before[k] * dst[k], value, elem);
    d += before[k] * dst[k] * elem;
    if (!padded_after[k + 1]) {  // no later axis is padded: the input rows are one block in both
      copy_bytes(d, s, in[k] * src[k] * elem);
      d += in[k] * dst[k] * elem;
    } else {
      for (std::size_t i = 0; i < in[k]; ++i, d += dst[k] * elem, s += src[k] * elem) run(k + 1, d, s);
    }
    fill_elements(d, after[k] * dst[k], value, elem);
  }
};

}  // namespace detail

/// Writes the output: the `elem`-byte pad value around the input block placed at the `before`
/// offsets (each output byte written once; rows of the input with memcpy).
inline void run(const NodeIO& io, const std::byte* value) noexcept {
  const RtOperand& in = io.input(0);
  const RtOperand& out = io.output(0);
  const auto pads = io.in<OperandType::TENSOR_INT32>(1);
  detail::PadWalk w;
  w.rank = in.dims.rank();
  w.elem = element_size(in.type);
  w.value = value;
  if (in.dims.element_count() == 0) {  // nothing to copy: all padding
    fill_elements(out.data, static_cast<std::size_t>(out.dims.element_count()), value, w.elem);
    return;
  }
  if (w.rank == 0) {  // a scalar: nothing to pad
    copy_bytes(out.data, in.data, w.elem);
    return;
  }
  const auto src = row_major_strides(in.dims);
  const auto dst = row_major_strides(out.dims);
  for (std::size_t k = 0; k < w.rank; ++k) {
    w.in[k] = in.dims[k];
    w.before[k] = static_cast<std::size_t>(pads[2 * k]);
    w.after[k] = static_cast<std::size_t>(pads[2 * k + 1]);
    w.src[k] = static_cast<std::size_t>(src[k]);
    w.dst[k] = static_cast<std::size_t>(dst[k]);
  }
  w.padded_after[w.rank] = false;
  for (std::size_t k = w.rank; k-- > 0;) w.padded_after[k] = w.padded_after[k + 1] || w.before[k] != 0 || w.after[k] != 0;
  if (!w.padded_after[0])
    copy_bytes(out.data, in.data, static_cast<std::size_t>(in.dims.element_count()) * w.elem);
  else
    w.run(0, out.data, in.data);
}

}  // namespace nnhal::kernels::pad_common
