#pragma once
/// \file
/// SIMD family: FLOAT32 SOFTMAX along contiguous rows, out = exp(beta * (x - max)) / sum,
/// compiled for every target (nnhal/simd/dispatch.hpp). The per-target code and its accuracy
/// (a vector exp within 2 ulp of the correctly rounded one) are described in
/// nnhal/simd/softmax_f32-inl.h.

#include <cstddef>
#include <cstdint>

#include "nnhal/simd/dispatch.hpp"

namespace nnhal::simd {

/// The family's entry points for one target.
struct SoftmaxF32 {
  /// For each of `rows` rows of `n` contiguous floats: out = exp(beta * (in - max(in))) /
  /// sum(exp(...)), beta > 0. `out` may equal `in`; n may be 0.
  void (*rows)(const float* in, float* out, std::size_t rows, std::size_t n, float beta);
  /// out[i] = exp(in[i]) for in[i] <= 0 (the family's vector exp, exposed for its tests).
  void (*exp_nonpositive)(const float* in, float* out, std::size_t n);
};

}  // namespace nnhal::simd

#define NNHAL_SIMD_FAMILY_INL "nnhal/simd/softmax_f32-inl.h"
#include "nnhal/simd/foreach_target-inl.h"
#undef NNHAL_SIMD_FAMILY_INL

namespace nnhal::simd {

/// The family's entry points compiled for `target` (default: the one this process runs).
inline const SoftmaxF32& softmax_f32(std::int64_t target = chosen_target()) noexcept {
  static constexpr PerTarget<SoftmaxF32> kTables[] = NNHAL_SIMD_PER_TARGET(kSoftmaxF32);
  return pick(kTables, target);
}

}  // namespace nnhal::simd
