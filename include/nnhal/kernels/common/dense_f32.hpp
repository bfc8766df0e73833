#pragma once
/// \file
/// The scalar FLOAT32 dense product that FULLY_CONNECTED's reference kernel runs, and the same
/// loop in the shape of the SIMD family's table (simd::FullyConnectedF32), so that kernels
/// built on that table (the LSTM cells) run it when prepare asks for reference kernels
/// (KernelPrepare::reference).

#include <cstddef>

#include "nnhal/simd/fully_connected_f32.hpp"

namespace nnhal::kernels::dense {

/// Reference FLOAT32 computation (TFLite reference_ops order: sum of products, then + bias, then
/// clamp). The SIMD kernel simd::fully_connected_f32 is checked against it.
inline void reference_f32(const float* in, const float* weights, const float* bias, float* out,
                          std::size_t batch, std::size_t input_size, std::size_t num_units,
                          float act_min, float act_max) noexcept {
  for (std::size_t b = 0; b < batch; ++b) {
    for (std::size_t u = 0; u < num_units; ++u) {
      float total = 0.0f;
      for (std::size_t k = 0; k < input_size; ++k)
        total += in[b * input_size + k] * weights[u * input_size + k];
      const float r = total + (bias != nullptr ? bias[u] : 0.0f);
      out[b * num_units + u] = r < act_min ? act_min : (r > act_max ? act_max : r);
    }
  }
}

/// reference_f32 as a table of the SIMD family's shape (no SIMD in it).
inline const simd::FullyConnectedF32& reference_f32_table() noexcept {
  static constexpr simd::FullyConnectedF32 kTable{&reference_f32};
  return kTable;
}

}  // namespace nnhal::kernels::dense
