#pragma once
/// \file
/// SIMD family: the per-row helpers of the 8-bit quantized SOFTMAX (TENSOR_QUANT8_ASYMM and
/// TENSOR_QUANT8_ASYMM_SIGNED) beside its exp table (nnhal/kernels/softmax.hpp), compiled for
/// every target (nnhal/simd/dispatch.hpp): the range (minimum and maximum) of a contiguous row.
/// The rescale by the sum's reciprocal uses nnhal/simd/quant8_binary.hpp's requant.

#include <cstddef>
#include <cstdint>

#include "nnhal/simd/dispatch.hpp"

namespace nnhal::simd {

/// The family's entry points for one target.
struct Quant8Softmax {
  /// *min = min(x[0..n)), *max = max(x[0..n)) for n >= 1.
  void (*min_max_u8)(const std::uint8_t* x, std::size_t n, std::int32_t* min, std::int32_t* max);
  void (*min_max_i8)(const std::int8_t* x, std::size_t n, std::int32_t* min, std::int32_t* max);
};

/// Overloads by element type.
inline void quant8_min_max(const Quant8Softmax& t, const std::uint8_t* x, std::size_t n, std::int32_t* min,
                           std::int32_t* max) noexcept {
  t.min_max_u8(x, n, min, max);
}
inline void quant8_min_max(const Quant8Softmax& t, const std::int8_t* x, std::size_t n, std::int32_t* min,
                           std::int32_t* max) noexcept {
  t.min_max_i8(x, n, min, max);
}

}  // namespace nnhal::simd

#define NNHAL_SIMD_FAMILY_INL "nnhal/simd/quant8_softmax-inl.h"
#include "nnhal/simd/foreach_target-inl.h"
#undef NNHAL_SIMD_FAMILY_INL

namespace nnhal::simd {

/// The family's entry points compiled for `target` (default: the one this process runs).
inline const Quant8Softmax& quant8_softmax(std::int64_t target = chosen_target()) noexcept {
  static constexpr PerTarget<Quant8Softmax> kTables[] = NNHAL_SIMD_PER_TARGET(kQuant8Softmax);
  return pick(kTables, target);
}

}  // namespace nnhal::simd
