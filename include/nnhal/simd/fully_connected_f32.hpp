#pragma once
/// \file
/// FLOAT32 FULLY_CONNECTED kernel, out = clamp(input x weights^T + bias), through the SIMD
/// dispatcher: each call runs the kernel of simd::dispatch()'s target. The per-target code and
/// its accuracy bound (it sums in another order than the scalar reference) are described in
/// nnhal/simd/fully_connected_f32-inl.h.

#include <cstddef>

#include "nnhal/simd/dispatch.hpp"

namespace nnhal::simd {

/// For b < batch, u < num_units:
///   out[b * num_units + u] = clamp(bias[u] + sum_k in[b * input_size + k] *
///                                  weights[u * input_size + k], act_min, act_max),
/// clamp(r) = `r < act_min ? act_min : (r > act_max ? act_max : r)`.
/// `weights` is [num_units, input_size] row-major; `bias` may be nullptr (treated as 0).
/// `out` must not overlap the inputs. The additions may be reordered (see the -inl file).
inline void fully_connected_f32(const float* in, const float* weights, const float* bias,
                                float* out, std::size_t batch, std::size_t input_size,
                                std::size_t num_units, float act_min, float act_max) noexcept {
  dispatch().fully_connected_f32(in, weights, bias, out, batch, input_size, num_units, act_min,
                                 act_max);
}

}  // namespace nnhal::simd
