#pragma once
/// \file
/// SIMD family: the FLOAT32 FULLY_CONNECTED kernel, out = clamp(input x weights^T + bias),
/// compiled for every target (nnhal/simd/dispatch.hpp). The per-target code and its accuracy
/// bound (it sums in another order than the scalar reference) are described in
/// nnhal/simd/fully_connected_f32-inl.h.

#include <cstddef>
#include <cstdint>

#include "nnhal/simd/dispatch.hpp"

namespace nnhal::simd {

/// The family's entry points for one target.
struct FullyConnectedF32 {
  /// For b < batch, u < num_units:
  ///   out[b * num_units + u] = clamp(bias[u] + sum_k in[b * input_size + k] *
  ///                                  weights[u * input_size + k], act_min, act_max),
  /// clamp(r) = `r < act_min ? act_min : (r > act_max ? act_max : r)`.
  /// `weights` is [num_units, input_size] row-major; `bias` may be nullptr (treated as 0).
  /// `out` must not overlap the inputs. The additions may be reordered (see the -inl file).
  void (*run)(const float* in, const float* weights, const float* bias, float* out,
              std::size_t batch, std::size_t input_size, std::size_t num_units, float act_min,
              float act_max);
};

}  // namespace nnhal::simd

#define NNHAL_SIMD_FAMILY_INL "nnhal/simd/fully_connected_f32-inl.h"
#include "nnhal/simd/foreach_target-inl.h"
#undef NNHAL_SIMD_FAMILY_INL

namespace nnhal::simd {

/// The family's entry points compiled for `target` (default: the one this process runs).
inline const FullyConnectedF32& fully_connected_f32_table(
    std::int64_t target = chosen_target()) noexcept {
  static constexpr PerTarget<FullyConnectedF32> kTables[] =
      NNHAL_SIMD_PER_TARGET(kFullyConnectedF32);
  return pick(kTables, target);
}

/// FullyConnectedF32::run of the target this process runs.
inline void fully_connected_f32(const float* in, const float* weights, const float* bias,
                                float* out, std::size_t batch, std::size_t input_size,
                                std::size_t num_units, float act_min, float act_max) noexcept {
  fully_connected_f32_table().run(in, weights, bias, out, batch, input_size, num_units, act_min,
                                  act_max);
}

}  // namespace nnhal::simd
