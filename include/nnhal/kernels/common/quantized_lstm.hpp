#pragma once
/// \file
/// Shared maths of the quantized LSTM cells (QUANTIZED_16BIT_LSTM, QUANTIZED_LSTM): gemmlowp's
/// fixed-point logistic and tanh on int16 (FixedPoint<int16_t, I>, the reference's 16-bit gate
/// activations), the reference's CheckedLog2, and small saturation helpers.
///
/// The int16 functions follow gemmlowp's generic templates step for step with a 16-bit raw type:
/// int32 constants are rounded to 16 bits by a rounding right shift of 16
/// (RescaleConstantInitializer), additions wrap, the doubling high multiply and the saturating
/// power-of-two multiply work on 16 bits. The int32 twins are in kernels/common/fixed_point.hpp.

#include <cmath>
#include <cstdint>
#include <limits>

#include "nnhal/kernels/common/fixed_point.hpp"
#include "nnhal/kernels/common/quantization.hpp"

namespace nnhal::fixed16 {

/// A 16-bit fixed-point number with `IntegerBits` integer bits (gemmlowp FixedPoint<int16_t, I>).
template <int IntegerBits>
struct F {
  static_assert(IntegerBits >= 0 && IntegerBits <= 15);
  static constexpr int kFractionalBits = 15 - IntegerBits;
  std::int16_t raw = 0;

  static constexpr F from_raw(std::int32_t r) noexcept { return F{static_cast<std::int16_t>(r)}; }
  static constexpr F zero() noexcept { return F{0}; }
  static constexpr F one() noexcept {
    return from_raw(IntegerBits == 0 ? std::numeric_limits<std::int16_t>::max() : (1 << kFractionalBits));
  }
  template <int Exponent>
  static constexpr F pot() noexcept {
    static_assert(kFractionalBits + Exponent >= 0 && kFractionalBits + Exponent < 15);
    return from_raw(1 << (kFractionalBits + Exponent));
  }
  /// An int32 gemmlowp constant rounded to 16 bits (gemmlowp RescaleConstantInitializer).
  static constexpr F constant(std::int32_t v32) noexcept { return from_raw(quant::rounding_divide_by_pot(v32, 16)); }
};

/// Wrapping 16-bit addition and subtraction (gemmlowp Add / Sub / Neg on int16_t).
template <int I>
constexpr F<I> operator+(F<I> a, F<I> b) noexcept {
  return F<I>::from_raw(static_cast<std::int16_t>(static_cast<std::uint16_t>(a.raw + b.raw)));
}
template <int I>
constexpr F<I> operator-(F<I> a, F<I> b) noexcept {
  return F<I>::from_raw(static_cast<std::int16_t>(static_cast<std::uint16_t>(a.raw - b.raw)));
}
template <int I>
constexpr F<I> operator-(F<I> a) noexcept {
  return F<I>::from_raw(static_cast<std::int16_t>(static_cast<std::uint16_t>(-a.raw)));
}
template <int A, int B>
constexpr F<A + B> operator*(F<A> a, F<B> b) noexcept {
  return F<A + B>::from_raw(fixed::saturating_rounding_doubling_high_mul16(a.raw, b.raw));
}

/// x * 2^Exponent on 16 bits: rounding to nearest when shifting right, saturating when left.
template <int Exponent>
constexpr std::int16_t multiply_by_pot(std::int16_t x) noexcept {
  if constexpr (Exponent == 0) {
    return x;
  } else if constexpr (Exponent > 0) {
    constexpr std::int32_t threshold = (1 << (15 - Exponent)) - 1;
    if (x > threshold) return std::numeric_limits<std::int16_t>::max();
    if (x < -threshold) return std::numeric_limits<std::int16_t>::min();
    return static_cast<std::int16_t>(x * (1 << Exponent));
  } else {
    return static_cast<std::int16_t>(quant::rounding_divide_by_pot(x, -Exponent));
  }
}

template <int Dst, int Src>
constexpr F<Dst> rescale(F<Src> x) noexcept {
  return F<Dst>::from_raw(multiply_by_pot<Src - Dst>(x.raw));
}

/// exp(a) for a in [-1/4, 0).
constexpr F<0> exp_on_interval_between_negative_one_quarter_and_0_excl(F<0> a) noexcept {
  using T = F<0>;
  const T constant_term = T::constant(1895147668);
  const T constant_1_over_3 = T::constant(715827883);
  const T x = a + T::pot<-3>();
  const T x2 = rescale<0>(x * x);
  const T x3 = rescale<0>(x2 * x);
  const T x4 = rescale<0>(x2 * x2);
  const T x4_over_4 = T::from_raw(multiply_by_pot<-2>(x4.raw));
  const T poly = T::from_raw(multiply_by_pot<-1>((rescale<0>((x4_over_4 + x3) * constant_1_over_3) + x2).raw));
  return constant_term + rescale<0>(constant_term * (x + poly));
}

/// exp(a) for a <= 0.
template <int I>
constexpr F<0> exp_on_negative_values(F<I> a) noexcept {
  using In = F<I>;
  using Out = F<0>;
  constexpr int kFractionalBits = In::kFractionalBits;
  const In one_quarter = In::template pot<-2>();
  const In mask = one_quarter - In::from_raw(1);
  const In a_mod_quarter_minus_one_quarter = In::from_raw(a.raw & mask.raw) - one_quarter;
  Out result = exp_on_interval_between_negative_one_quarter_and_0_excl(rescale<0>(a_mod_quarter_minus_one_quarter));
  const std::int16_t remainder = (a_mod_quarter_minus_one_quarter - a).raw;
  auto step = [&](int exponent, std::int32_t multiplier) {
    if (I > exponent && (remainder & (1 << (kFractionalBits + exponent))) != 0)
      result = result * Out::constant(multiplier);
  };
  step(-2, 1672461947);  // exp(-1/4)
  step(-1, 1302514674);  // exp(-1/2)
  step(0, 790015084);    // exp(-1)
  step(1, 290630308);    // exp(-2)
  step(2, 39332535);     // exp(-4)
  step(3, 720401);       // exp(-8)
  step(4, 242);          // exp(-16)
  if constexpr (I > 5) {
    const In clamp = In::constant(-(1 << (36 - I)));  // -32
    if (a.raw < clamp.raw) result = Out::zero();
  }
  if (a.raw == 0) result = Out::one();
  return result;
}

/// The Newton-Raphson reciprocal of one_over / one_minus_x_over (x ~ 1 / half_denominator, Q2).
constexpr F<2> reciprocal_of_half_denominator(F<0> half_denominator) noexcept {
  using F2 = F<2>;
  F2 x = F2::constant(1515870810) + half_denominator * F2::constant(-1010580540);
  for (int i = 0; i < 3; ++i) {
    const F2 one_minus = F2::one() - half_denominator * x;
    x = x + rescale<2>(x * one_minus);
  }
  return x;
}

constexpr F<0> half_denominator_of(F<0> a) noexcept {
  return F<0>::from_raw(fixed::rounding_half_sum(a.raw, F<0>::one().raw));
}

/// 1 / (1 + a) for a in [0, 1].
constexpr F<0> one_over_one_plus_x_for_x_in_0_1(F<0> a) noexcept {
  const F<2> x = reciprocal_of_half_denominator(half_denominator_of(a));
  return rescale<0>(F<1>::from_raw(x.raw));  // ExactMulByPot<-1>
}

/// (1 - a) / (1 + a) for a in [0, 1].
constexpr F<0> one_minus_x_over_one_plus_x_for_x_in_0_1(F<0> a) noexcept {
  const F<2> x = reciprocal_of_half_denominator(half_denominator_of(a));
  return rescale<0>(x - F<2>::one());
}

/// 1 / (1 + exp(-a)) as Q0.15.
template <int I>
constexpr F<0> logistic(F<I> a) noexcept {
  if (a.raw == 0) return F<0>::constant(1 << 30);  // 0.5
  const bool positive = a.raw > 0;
  const F<I> abs_input = positive ? a : -a;
  const F<0> if_positive = one_over_one_plus_x_for_x_in_0_1(exp_on_negative_values(-abs_input));
  return positive ? if_positive : F<0>::one() - if_positive;
}

/// tanh(a) as Q0.15.
template <int I>
constexpr F<0> tanh(F<I> a) noexcept {
  if (a.raw == 0) return F<0>::zero();
  const bool negative = a.raw < 0;
  const F<I> n = negative ? a : -a;
  const F<0> t = one_minus_x_over_one_plus_x_for_x_in_0_1(exp_on_negative_values(F<I + 1>::from_raw(n.raw)));
  return negative ? -t : t;
}

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
