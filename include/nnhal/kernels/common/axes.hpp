#pragma once
/// \file
/// Axis and shape helpers shared by the shape, indexing and reduction kernels: resolving a
/// possibly negative axis, reading an axes tensor into a set (repeats allowed), the shape of a
/// reduction, and the overflow check of a computed output shape.

#include <array>
#include <cstddef>
#include <cstdint>

#include "nnhal/kernels/common/axis.hpp"
#include "nnhal/core/dims.hpp"
#include "nnhal/core/operand_traits.hpp"
#include "nnhal/core/result.hpp"
#include "nnhal/interface/node_io.hpp"

namespace nnhal::kernels {

/// The axes named by a TENSOR_INT32 axes input (1-D, or a scalar-shaped tensor), negative
/// values resolved, repeats allowed.
struct AxisSet {
  std::array<bool, kMaxRank> on{};
  std::size_t count = 0;  ///< distinct axes
};

inline Expected<AxisSet> read_axes(const NodeIO& io, std::size_t input, std::size_t rank) {
  const RtOperand& axes = io.input(input);
  if (axes.dims.rank() > 1) return NNHAL_INVALID("axes must be 1-D, it has rank %zu", axes.dims.rank());
  const auto values = io.in<OperandType::TENSOR_INT32>(input);
  AxisSet set;
  for (std::size_t i = 0; i < values.size(); ++i) {
    auto a = resolve_axis(values[i], rank, "");
    if (!a) return std::move(a.error());
    if (!set.on[*a]) ++set.count;
    set.on[*a] = true;
  }
  return set;
}

/// Shape of reducing `in` over `axes`: reduced axes become 1 with keep_dims, else disappear;
/// reducing every axis without keep_dims gives [1] (the reference's rule).
inline Dims reduced_dims(const Dims& in, const AxisSet& axes, bool keep_dims) noexcept {
  Dims out;
  for (std::size_t k = 0; k < in.rank(); ++k) {
    if (!axes.on[k])
      out.push_back(in[k]);
    else if (keep_dims)
      out.push_back(1);
  }
  if (out.rank() == 0) out.push_back(1);
  return out;
}

/// Checks that a computed dimension fits the 32-bit dimension type.
inline Expected<std::uint32_t> checked_dim(std::uint64_t v, const char* what) {
  if (v > UINT32_MAX)
    return NNHAL_INVALID("%s: dimension %llu does not fit 32 bits", what, static_cast<unsigned long long>(v));
  return static_cast<std::uint32_t>(v);
}

/// Checks that a tensor of shape `d` with `elem`-byte elements is addressable (its byte size
/// fits a signed pointer difference, so strides never overflow).
inline Status check_addressable(const Dims& d, std::size_t elem, const char* what) {
  std::uint64_t bytes = 0;
  const std::uint64_t n = d.element_count();
  if (n == UINT64_MAX || __builtin_mul_overflow(n, std::uint64_t{elem}, &bytes) ||
      bytes > static_cast<std::uint64_t>(PTRDIFF_MAX))
    return NNHAL_INVALID("%s: the output shape's size overflows", what);
  return {};
}

/// Sets output `i` to shape `d`, after the addressability check.
inline Status set_output(const NodeIO& io, std::size_t i, const Dims& d) {
  RtOperand& out = io.output(i);
  NNHAL_TRY(check_addressable(d, element_size(out.type), "output"));
  out.dims = d;
  out.rank_known = true;
  return {};
}

/// Reads the optional layout flag at input `i` (absent or false = NHWC).
inline bool layout_nchw(const NodeIO& io, std::size_t i) noexcept {
  return io.has_input(i) && io.scalar<OperandType::BOOL>(i) != 0;
}

}  // namespace nnhal::kernels
