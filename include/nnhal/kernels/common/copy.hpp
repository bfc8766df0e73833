#pragma once
/// \file
/// Byte-level helpers shared by data-movement kernels (CONCATENATION, SLICE, ...): they move
/// elements without looking at their type, so one kernel serves every operand type.

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "nnhal/core/dims.hpp"

namespace nnhal {

/// Product of dims[from, to).
constexpr std::size_t dims_product(const Dims& d, std::size_t from, std::size_t to) noexcept {
  std::size_t n = 1;
  for (std::size_t i = from; i < to; ++i) n *= d[i];
  return n;
}

/// memcpy that accepts null pointers for zero bytes (plain memcpy does not).
inline void copy_bytes(void* dst, const void* src, std::size_t bytes) noexcept {
  if (bytes != 0) std::memcpy(dst, src, bytes);
}

}  // namespace nnhal
