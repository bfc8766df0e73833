#pragma once
/// \file
/// Shared maths of the quantized LSTM cells (QUANTIZED_16BIT_LSTM, QUANTIZED_LSTM): the 16-bit
/// fixed-point numbers of the reference's gate activations (fixed16::F, gemmlowp's
/// FixedPoint<int16_t, I>, with the logistic and tanh of kernels/common/fixed_point.hpp), the
/// reference's CheckedLog2, and small saturation helpers.

#include <cmath>
#include <cstdint>
#include <limits>

#include "nnhal/kernels/common/fixed_point.hpp"
#include "nnhal/kernels/common/quantization.hpp"

namespace nnhal::fixed16 {

/// A 16-bit fixed-point number with `IntegerBits` integer bits (gemmlowp FixedPoint<int16_t, I>).
template <int IntegerBits>
using F = fixed::FixedPoint<std::int16_t, IntegerBits>;

using fixed::logistic;
using fixed::rescale;
using fixed::tanh;

/// tanh of a raw int16 with `integer_bits` integer bits (0..6, the range QUANTIZED_LSTM's cell
/// state scales allow; callers check it).
inline std::int16_t tanh_raw(int integer_bits, std::int16_t x) noexcept {
  switch (integer_bits) {
    case 0: return tanh(F<0>::from_raw(x)).raw;
    case 1: return tanh(F<1>::from_raw(x)).raw;
    case 2: return tanh(F<2>::from_raw(x)).raw;
    case 3: return tanh(F<3>::from_raw(x)).raw;
    case 4: return tanh(F<4>::from_raw(x)).raw;
    case 5: return tanh(F<5>::from_raw(x)).raw;
    default: return tanh(F<6>::from_raw(x)).raw;
  }
}

}  // namespace nnhal::fixed16

namespace nnhal::kernels::qlstm_common {

/// The reference's CheckedLog2: log2(x) rounded, and whether x is within 1e-3 (in the exponent)
/// of that power of two; computed in float as there.
inline bool checked_log2(float x, int& log2_result) noexcept {
  if (!(x > 0.0f) || !std::isfinite(x)) return false;
  const float x_log2 = std::log(x) * (1.0f / std::log(2.0f));
  const float rounded = std::round(x_log2);
  log2_result = static_cast<int>(rounded);
  return std::abs(x_log2 - rounded) < 1e-3f;
}

/// v clamped to [lo, hi].
constexpr std::int64_t clamp64(std::int64_t v, std::int64_t lo, std::int64_t hi) noexcept {
  return v < lo ? lo : (v > hi ? hi : v);
}
constexpr std::int16_t sat16(std::int64_t v) noexcept { return static_cast<std::int16_t>(clamp64(v, -32768, 32767)); }

/// Wrapping int32 arithmetic (the reference's int32 accumulators, which overflow as two's
/// complement in practice).
constexpr std::int32_t wrap_mul(std::int32_t a, std::int32_t b) noexcept {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) * static_cast<std::uint32_t>(b));
}

}  // namespace nnhal::kernels::qlstm_common
