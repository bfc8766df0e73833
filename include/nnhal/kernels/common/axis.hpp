#pragma once
/// \file
/// Axis arguments of the kernels that work along one axis (SOFTMAX, LOG_SOFTMAX,
/// L2_NORMALIZATION, LOCAL_RESPONSE_NORMALIZATION, GATHER, SPLIT, ARGMAX, ...): resolving a
/// negative axis and splitting a shape into the elements before, along and after it. Axis
/// lists (the reductions) are in nnhal/kernels/common/axes.hpp.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "nnhal/core/dims.hpp"
#include "nnhal/core/result.hpp"

namespace nnhal::kernels {

/// `axis` in [-rank, rank) as an index in [0, rank), or INVALID_ARGUMENT naming the operation
/// `op` (leave it empty where the caller's error prefix names it already).
inline Expected<std::size_t> resolve_axis(std::int64_t axis, std::size_t rank, std::string_view op) {
  const auto r = static_cast<std::int64_t>(rank);
  if (axis < -r || axis >= r)
    return NNHAL_INVALID("%.*s%saxis %lld is outside [-%zu, %zu) for an input of rank %zu", static_cast<int>(op.size()),
                         op.data(), op.empty() ? "" : " ", static_cast<long long>(axis), rank, rank, rank);
  return static_cast<std::size_t>(axis < 0 ? axis + r : axis);
}

/// A shape seen as [outer, axis, inner] around one axis: element (o, a, i) is at
/// (o * axis + a) * inner + i.
struct AxisSplit {
  std::size_t outer = 1, axis = 1, inner = 1;
};

inline AxisSplit split_at(const Dims& dims, std::size_t axis) noexcept {
  AxisSplit s;
  for (std::size_t d = 0; d < axis; ++d) s.outer *= dims[d];
  s.axis = dims[axis];
  for (std::size_t d = axis + 1; d < dims.rank(); ++d) s.inner *= dims[d];
  return s;
}

}  // namespace nnhal::kernels
