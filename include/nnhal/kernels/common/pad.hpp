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
      return NNHAL_INVALID("paddings of axis %zu are negative (%d, %d)", k, before, after);
    auto d = checked_dim(std::uint64_t{in[k]} + static_cast<std::uint64_t>(before) + static_cast<std::uint64_t>(after),
                         "padded axis");
    if (!d) return std::move(d.error());
    out.push_back(*d);
  }
  return set_output(io, 0, out);
}

/// Fills the output with the `elem`-byte pad value, then copies the input into the box at the
/// `before` offsets (rows with memcpy).
inline void run(const NodeIO& io, const std::byte* value) noexcept {
  const RtOperand& in = io.input(0);
  const RtOperand& out = io.output(0);
  const std::size_t elem = element_size(in.type);
  const auto pads = io.in<OperandType::TENSOR_INT32>(1);
  fill_elements(out.data, static_cast<std::size_t>(out.dims.element_count()), value, elem);
  const auto src = row_major_strides(in.dims);
  const auto dst = row_major_strides(out.dims);
  std::ptrdiff_t offset = 0;
  CopyPlan plan;
  for (std::size_t k = 0; k < in.dims.rank(); ++k) {
    offset += static_cast<std::ptrdiff_t>(pads[2 * k]) * dst[k];
    plan.add(in.dims[k], src[k], dst[k]);
  }
  strided_copy(out.data + offset * static_cast<std::ptrdiff_t>(elem), in.data, plan, elem);
}

}  // namespace nnhal::kernels::pad_common
