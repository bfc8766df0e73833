#pragma once
/// \file
/// The table of SIMD kernel entry points of one Highway target (simd::Dispatch) and the
/// vocabulary its signatures use. No Highway here: the table is plain data, so code that only
/// stores or passes a kernel pointer (a prepared node) needs nothing else.

#include <cstddef>
#include <cstdint>

namespace nnhal::simd {

/// Which binary operation a SIMD kernel applies.
enum class BinaryOp { Add, Sub, Mul, Div };

/// Entry points of nnhal's SIMD kernels compiled for one Highway target. One table exists per
/// compiled target (nnhal/simd/dispatch.hpp); simd::dispatch() returns the one in use.
/// Prepare-time code may copy a pointer out of it; running it is then one indirect call.
struct Dispatch {
  /// Highway's name of the target: "AVX3_DL", "AVX2", "SSE4", "NEON", "SCALAR", ...
  const char* name;
  /// Highway's bit for the target (HWY_AVX2, ...); on x86 a lower value is a better target.
  std::int64_t target;

  /// Float lanes of one vector of the target (1 for SCALAR).
  std::size_t (*lanes_f32)();

  /// See simd::binary_f32 (nnhal/simd/elementwise_f32.hpp).
  void (*binary_f32)(BinaryOp op, const float* a, const float* b, bool b_scalar, float* out,
                     std::size_t n, float lo, float hi);
  /// See simd::binary_f32_scalar_first (nnhal/simd/elementwise_f32.hpp).
  void (*binary_f32_scalar_first)(BinaryOp op, float a, const float* b, float* out, std::size_t n,
                                  float lo, float hi);
  /// See simd::fully_connected_f32 (nnhal/simd/fully_connected_f32.hpp).
  void (*fully_connected_f32)(const float* in, const float* weights, const float* bias, float* out,
                              std::size_t batch, std::size_t input_size, std::size_t num_units,
                              float act_min, float act_max);
};

}  // namespace nnhal::simd
