#pragma once
/// \file
/// SIMD family: 8-bit quantized elementwise kernels (DEQUANTIZE to float32, QUANTIZE from
/// float32, the RELU-family clamp on stored integers, MAXIMUM / MINIMUM of operands sharing one
/// quantization), for TENSOR_QUANT8_ASYMM (uint8_t) and TENSOR_QUANT8_ASYMM_SIGNED (int8_t),
/// compiled for every target (nnhal/simd/dispatch.hpp). Every entry gives the scalar
/// reference's results bit for bit; the per-target code is in nnhal/simd/quant8-inl.h.

#include <cstddef>
#include <cstdint>

#include "nnhal/simd/dispatch.hpp"

namespace nnhal::simd {

/// The family's entry points for element type E (uint8_t or int8_t) on one target. n may be 0.
template <class E>
struct Quant8Ops {
  /// out[i] = scale * float(int32(in[i]) - zero_point).
  void (*dequantize)(const E* in, float* out, std::size_t n, float scale, std::int32_t zero_point);
  /// out[i] = E(max(lo, min(hi, float(zero_point) + round(in[i] / scale)))), round halfway
  /// cases away from zero (std::round), [lo, hi] E's range; NaN gives hi.
  void (*quantize)(const float* in, E* out, std::size_t n, float scale, std::int32_t zero_point);
  /// out[i] = x < lo ? lo : (x > hi ? hi : x), x = in[i]. `out` may equal `in`.
  void (*clamp)(const E* in, E* out, std::size_t n, E lo, E hi);
  /// out[i] = std::min (min) or std::max of a[i] (a[0] when a_scalar) and b[i] (b[0] when
  /// b_scalar). `out` may equal `a` or `b`.
  void (*min_max)(bool min, const E* a, bool a_scalar, const E* b, bool b_scalar, E* out, std::size_t n);
};

/// The family's entry points for one target.
struct Quant8 {
  Quant8Ops<std::uint8_t> u8;
  Quant8Ops<std::int8_t> s8;
};

}  // namespace nnhal::simd

#define NNHAL_SIMD_FAMILY_INL "nnhal/simd/quant8-inl.h"
#include "nnhal/simd/foreach_target-inl.h"
#undef NNHAL_SIMD_FAMILY_INL

namespace nnhal::simd {

/// The family's entry points compiled for `target` (default: the one this process runs).
inline const Quant8& quant8(std::int64_t target = chosen_target()) noexcept {
  static constexpr PerTarget<Quant8> kTables[] = NNHAL_SIMD_PER_TARGET(kQuant8);
  return pick(kTables, target);
}

}  // namespace nnhal::simd
