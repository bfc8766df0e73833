#pragma once
/// \file
/// Fixed-point requantization exactly as the reference (gemmlowp / TFLite) kernels do it, so
/// quantized results match the conformance corpus bit for bit.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "nnhal/core/enums.hpp"

namespace nnhal::quant {

/// (a * b * 2) >> 31 rounded to nearest, saturating the single overflow case.
constexpr std::int32_t saturating_rounding_doubling_high_mul(std::int32_t a,
                                                             std::int32_t b) noexcept {
  const bool overflow = a == b && a == std::numeric_limits<std::int32_t>::min();
  const std::int64_t ab = static_cast<std::int64_t>(a) * static_cast<std::int64_t>(b);
  const std::int64_t nudge = ab >= 0 ? (std::int64_t{1} << 30) : (1 - (std::int64_t{1} << 30));
  const auto r = static_cast<std::int32_t>((ab + nudge) / (std::int64_t{1} << 31));
  return overflow ? std::numeric_limits<std::int32_t>::max() : r;
}

/// x / 2^exponent rounded to nearest, ties away from zero.
constexpr std::int32_t rounding_divide_by_pot(std::int32_t x, int exponent) noexcept {
  const std::int32_t mask = static_cast<std::int32_t>((std::int64_t{1} << exponent) - 1);
  const std::int32_t remainder = x & mask;
  const std::int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

/// x * multiplier * 2^shift for a Q31 multiplier and a shift of either sign.
constexpr std::int32_t multiply_by_quantized_multiplier(std::int32_t x, std::int32_t multiplier,
                                                        int shift) noexcept {
  const int left = shift > 0 ? shift : 0;
  const int right = shift > 0 ? 0 : -shift;
  const auto shifted = static_cast<std::int32_t>(static_cast<std::uint32_t>(x) << left);
  return rounding_divide_by_pot(saturating_rounding_doubling_high_mul(shifted, multiplier), right);
}

/// A real multiplier as Q31 fixed point and a power-of-two exponent.
struct Multiplier {
  std::int32_t value = 0;
  int shift = 0;  ///< positive = left shift
};

/// Decomposes `real` into a Q31 multiplier and an exponent (TFLite QuantizeMultiplier).
inline Multiplier quantize_multiplier(double real) noexcept {
  if (real == 0.0 || !std::isfinite(real)) return {};
  int shift = 0;
  const double q = std::frexp(real, &shift);
  auto q_fixed = static_cast<std::int64_t>(std::round(q * static_cast<double>(1LL << 31)));
  if (q_fixed == (1LL << 31)) {
    q_fixed /= 2;
    ++shift;
  }
  if (shift < -31) {
    shift = 0;
    q_fixed = 0;
  }
  if (shift > 30) {  // would overflow any int32 input; saturate the multiplier instead
    shift = 30;
    q_fixed = std::numeric_limits<std::int32_t>::max();
  }
  return {static_cast<std::int32_t>(q_fixed), shift};
}

/// `x` (already rounded) as an int32, saturated to its range, NaN as 0. Where the reference
/// converts with a plain cast, scales of an untrusted model can make the value too large for
/// an int (a cast that is undefined behaviour); this keeps every value in range the same.
inline std::int32_t saturating_int32(double x) noexcept {
  if (!(x == x)) return 0;
  if (x <= static_cast<double>(std::numeric_limits<std::int32_t>::min())) return std::numeric_limits<std::int32_t>::min();
  if (x >= static_cast<double>(std::numeric_limits<std::int32_t>::max())) return std::numeric_limits<std::int32_t>::max();
  return static_cast<std::int32_t>(x);
}

/// a + b saturated to the int32 range.
constexpr std::int32_t saturating_add_int32(std::int32_t a, std::int32_t b) noexcept {
  const std::int64_t s = std::int64_t{a} + b;
  return s < std::numeric_limits<std::int32_t>::min()   ? std::numeric_limits<std::int32_t>::min()
         : s > std::numeric_limits<std::int32_t>::max() ? std::numeric_limits<std::int32_t>::max()
                                                        : static_cast<std::int32_t>(s);
}

/// Range [min, max] of quantized output values after a fused activation, for an output of
/// the given scale / zero point stored in [qmin, qmax].
struct QuantRange {
  std::int32_t min;
  std::int32_t max;
};

inline QuantRange activation_range(FusedActivationFunc act, float scale, std::int32_t zero_point,
                                   std::int32_t qmin, std::int32_t qmax) noexcept {
  auto q = [&](float f) {
    return saturating_add_int32(zero_point, saturating_int32(std::round(f / scale)));
  };
  switch (act) {
    case FusedActivationFunc::RELU: return {std::max(qmin, q(0.0f)), qmax};
    case FusedActivationFunc::RELU6: return {std::max(qmin, q(0.0f)), std::min(qmax, q(6.0f))};
    case FusedActivationFunc::RELU1: return {std::max(qmin, q(-1.0f)), std::min(qmax, q(1.0f))};
    case FusedActivationFunc::NONE: break;
  }
  return {qmin, qmax};
}

/// Storage range of a quantized element type.
template <class T>
constexpr QuantRange storage_range() noexcept {
  return {std::numeric_limits<T>::min(), std::numeric_limits<T>::max()};
}

/// `value` of quantization (from_scale, from_zero_point) re-expressed in (to_scale,
/// to_zero_point), clamped to T's range (the reference's requantize: the real value formed in
/// float, the division and rounding in double).
template <class T>
inline T requantize(std::int32_t value, float from_scale, std::int32_t from_zero_point, float to_scale,
                    std::int32_t to_zero_point) noexcept {
  const double real = static_cast<float>(value - from_zero_point) * from_scale;
  const double r = real / static_cast<double>(to_scale) + to_zero_point;
  constexpr double lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
  if (r < lo) return static_cast<T>(lo);
  if (r > hi) return static_cast<T>(hi);
  return static_cast<T>(std::round(r));
}

}  // namespace nnhal::quant
