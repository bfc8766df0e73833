#pragma once
/// \file
/// SIMD family: the 2-D transpose of 32-bit elements (TRANSPOSE of FLOAT32 tensors when it
/// moves the innermost axis, e.g. NHWC -> NCHW), compiled for every target
/// (nnhal/simd/dispatch.hpp). It moves bits only, so the result is exact on every target.

#include <cstddef>
#include <cstdint>

#include "nnhal/simd/dispatch.hpp"

namespace nnhal::simd {

/// The family's entry points for one target.
struct Transpose32 {
  /// dst[j * dst_stride + i] = src[i * src_stride + j] for i < rows, j < cols, on 32-bit
  /// elements (strides in elements; the two blocks must not overlap). Unaligned pointers are
  /// fine; nothing outside the two blocks is read or written.
  void (*transpose)(const void* src, void* dst, std::size_t rows, std::size_t cols, std::ptrdiff_t src_stride,
                    std::ptrdiff_t dst_stride);
};

}  // namespace nnhal::simd

#define NNHAL_SIMD_FAMILY_INL "nnhal/simd/transpose_32-inl.h"
#include "nnhal/simd/foreach_target-inl.h"
#undef NNHAL_SIMD_FAMILY_INL

namespace nnhal::simd {

/// The family's entry points compiled for `target` (default: the one this process runs).
inline const Transpose32& transpose_32(std::int64_t target = chosen_target()) noexcept {
  static constexpr PerTarget<Transpose32> kTables[] = NNHAL_SIMD_PER_TARGET(kTranspose32);
  return pick(kTables, target);
}

}  // namespace nnhal::simd
