#pragma once
/// \file
/// SIMD family: reductions of contiguous rows (REDUCE_SUM / PROD / MAX / MIN and MEAN when the
/// reduced axes are the innermost contiguous block), compiled for every target
/// (nnhal/simd/dispatch.hpp). FLOAT32 sum / product / max / min, and the 8-bit quantized max /
/// min / mean (quantized REDUCE_MAX/MIN and MEAN keep the input's quantization, so they work on
/// the stored values). Which results are exact and the accuracy of the float sum and product
/// are described in nnhal/simd/reduce_f32-inl.h.

#include <cstddef>
#include <cstdint>

#include "nnhal/simd/dispatch.hpp"

namespace nnhal::simd {

/// The family's entry points for one target. Each reduces `rows` rows of `n` contiguous
/// elements at `in` (row r at in + r * n) to out[r]; n may be 0 (the empty reduction: 0, 1,
/// -inf, +inf; 0 for the mean).
struct ReduceF32 {
  /// Sum, in a different order than a sequential loop (bounded error, see the -inl file).
  void (*sum)(const float* in, std::size_t rows, std::size_t n, float* out);
  /// Product, in a different order than a sequential loop (bounded error, see the -inl file).
  void (*prod)(const float* in, std::size_t rows, std::size_t n, float* out);
  /// Maximum / minimum exactly as the sequential loop `a = v > a ? v : a` from -inf (`v < a`
  /// from +inf): NaN elements are skipped, and of equal values (+0 and -0) the first one wins.
  void (*max)(const float* in, std::size_t rows, std::size_t n, float* out);
  void (*min)(const float* in, std::size_t rows, std::size_t n, float* out);
  /// Exact maximum / minimum of 8-bit values.
  void (*max_u8)(const std::uint8_t* in, std::size_t rows, std::size_t n, std::uint8_t* out);
  void (*min_u8)(const std::uint8_t* in, std::size_t rows, std::size_t n, std::uint8_t* out);
  void (*max_i8)(const std::int8_t* in, std::size_t rows, std::size_t n, std::int8_t* out);
  void (*min_i8)(const std::int8_t* in, std::size_t rows, std::size_t n, std::int8_t* out);
  /// Exact integer sum divided by n with C++ integer division (truncation toward zero), as
  /// the reference's quantized MEAN; 0 when n is 0.
  void (*mean_u8)(const std::uint8_t* in, std::size_t rows, std::size_t n, std::uint8_t* out);
  void (*mean_i8)(const std::int8_t* in, std::size_t rows, std::size_t n, std::int8_t* out);
};

}  // namespace nnhal::simd

#define NNHAL_SIMD_FAMILY_INL "nnhal/simd/reduce_f32-inl.h"
#include "nnhal/simd/foreach_target-inl.h"
#undef NNHAL_SIMD_FAMILY_INL

namespace nnhal::simd {

/// The family's entry points compiled for `target` (default: the one this process runs).
inline const ReduceF32& reduce_f32(std::int64_t target = chosen_target()) noexcept {
  static constexpr PerTarget<ReduceF32> kTables[] = NNHAL_SIMD_PER_TARGET(kReduceF32);
  return pick(kTables, target);
}

}  // namespace nnhal::simd
