#pragma once
/// \file
/// SIMD family: FLOAT32 activations and MAXIMUM / MINIMUM (RELU / RELU1 / RELU6 clamps,
/// LOGISTIC, TANH, ELU, HARD_SWISH, PRELU, MAXIMUM, MINIMUM), compiled for every target
/// (nnhal/simd/dispatch.hpp). The per-target code and what it guarantees (bit for bit the scalar
/// reference for the clamps, HARD_SWISH, PRELU, MAXIMUM and MINIMUM; a stated error bound for
/// the transcendental ones) is in nnhal/simd/activation_f32-inl.h.

#include <cstddef>
#include <cstdint>

#include "nnhal/simd/dispatch.hpp"

namespace nnhal::simd {

/// The family's entry points for one target. Every entry allows `out` to equal an input (in
/// place); n may be 0.
struct ActivationF32 {
  /// out[i] = x < lo ? lo : (x > hi ? hi : x), x = in[i] (RELU, RELU1, RELU6).
  void (*clamp)(const float* in, float* out, std::size_t n, float lo, float hi);
  /// out[i] = 1 / (1 + exp(-in[i])).
  void (*logistic)(const float* in, float* out, std::size_t n);
  /// out[i] = tanh(in[i]).
  void (*tanh)(const float* in, float* out, std::size_t n);
  /// out[i] = max(0, x) + min(0, alpha * (exp(x) - 1)), x = in[i].
  void (*elu)(const float* in, float* out, std::size_t n, float alpha);
  /// out[i] = x * min(6, max(0, x + 3)) / 6, x = in[i].
  void (*hard_swish)(const float* in, float* out, std::size_t n);
  /// out[i] = x >= 0 ? x : x * alpha[i % period], x = in[i]; n is a multiple of period
  /// (period = n: same shape; 1: scalar alpha; else alpha repeats along the innermost axes).
  void (*prelu)(const float* in, const float* alpha, std::size_t period, float* out, std::size_t n);
  /// MAXIMUM (min = false: std::max(a, b), i.e. a < b ? b : a) or MINIMUM (std::min(a, b), i.e.
  /// b < a ? b : a) of a[i] (a[0] when a_scalar) and b[i] (b[0] when b_scalar).
  void (*min_max)(bool min, const float* a, bool a_scalar, const float* b, bool b_scalar, float* out,
                  std::size_t n);
};

}  // namespace nnhal::simd

#define NNHAL_SIMD_FAMILY_INL "nnhal/simd/activation_f32-inl.h"
#include "nnhal/simd/foreach_target-inl.h"
#undef NNHAL_SIMD_FAMILY_INL

namespace nnhal::simd {

/// The family's entry points compiled for `target` (default: the one this process runs).
inline const ActivationF32& activation_f32(std::int64_t target = chosen_target()) noexcept {
  static constexpr PerTarget<ActivationF32> kTables[] = NNHAL_SIMD_PER_TARGET(kActivationF32);
  return pick(kTables, target);
}

}  // namespace nnhal::simd
