#pragma once
/// \file
/// gemmlowp-style fixed-point arithmetic on int32 (Q(IntegerBits).(31 - IntegerBits)) and on
/// int16 (Q(IntegerBits).(15 - IntegerBits)), and the transcendental approximations the
/// reference's quantized LOGISTIC, TANH, SOFTMAX and L2_NORMALIZATION kernels (int32) and its
/// quantized LSTM cells' gates (int16, kernels/common/quantized_lstm.hpp) use: exp on negative
/// values, 1 / (1 + x), logistic, tanh, 1/sqrt; plus the int16 helpers of quantized HARD_SWISH.
/// Every function reproduces the reference's integer operations step for step, so quantized
/// results match the corpus bit for bit.

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>

#include "nnhal/kernels/common/quantization.hpp"

namespace nnhal::fixed {

// ---- int16 steps (the int16 fixed-point numbers below, quantized HARD_SWISH) ----------------

/// (a * b * 2) >> 16 rounded to nearest, saturating the single overflow case.
constexpr std::int16_t saturating_rounding_doubling_high_mul16(std::int16_t a, std::int16_t b) noexcept {
  if (a == b && a == std::numeric_limits<std::int16_t>::min()) return std::numeric_limits<std::int16_t>::max();
  const std::int32_t ab = std::int32_t{a} * std::int32_t{b};
  const std::int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
  return static_cast<std::int16_t>((ab + nudge) / (1 << 15));
}

/// (a * b * 2) >> 16 rounded toward zero, saturating the single overflow case (ARM SQDMULH).
constexpr std::int16_t saturating_doubling_high_mul16(std::int16_t a, std::int16_t b) noexcept {
  if (a == b && a == std::numeric_limits<std::int16_t>::min()) return std::numeric_limits<std::int16_t>::max();
  const std::int32_t ab = std::int32_t{a} * std::int32_t{b};
  return static_cast<std::int16_t>(ab / (1 << 15));
}

/// value * 2^amount clamped to the int16 range.
constexpr std::int16_t saturating_left_shift16(std::int16_t value, int amount) noexcept {
  const std::int64_t r = std::int64_t{value} * (std::int64_t{1} << amount);
  if (r > std::numeric_limits<std::int16_t>::max()) return std::numeric_limits<std::int16_t>::max();
  if (r < std::numeric_limits<std::int16_t>::min()) return std::numeric_limits<std::int16_t>::min();
  return static_cast<std::int16_t>(r);
}

// ---- fixed-point numbers ---------------------------------------------------------------------

/// A fixed-point number with `IntegerBits` integer bits held in Raw, int32 (Q(I).(31 - I)) or
/// int16 (Q(I).(15 - I)): gemmlowp's FixedPoint<Raw, IntegerBits>. The functions below follow
/// gemmlowp's generic templates for either raw type: additions wrap, products are rounding
/// doubling high multiplies of the raw width, and gemmlowp's constants (given for int32) are
/// rounded to 16 bits on int16 (constant()).
template <class Raw, int IntegerBits>
struct FixedPoint {
  static_assert(std::is_same_v<Raw, std::int32_t> || std::is_same_v<Raw, std::int16_t>);
  static constexpr int kRawBits = static_cast<int>(8 * sizeof(Raw)) - 1;  ///< value bits: 31 or 15
  static_assert(IntegerBits >= 0 && IntegerBits <= kRawBits);
  static constexpr int kIntegerBits = IntegerBits;
  static constexpr int kFractionalBits = kRawBits - IntegerBits;
  Raw raw = 0;

  static constexpr FixedPoint from_raw(std::int32_t r) noexcept { return FixedPoint{static_cast<Raw>(r)}; }
  static constexpr FixedPoint zero() noexcept { return FixedPoint{0}; }
  /// 1.0, or the largest value below it when there are no integer bits.
  static constexpr FixedPoint one() noexcept {
    return from_raw(IntegerBits == 0 ? std::numeric_limits<Raw>::max()
                                     : static_cast<std::int32_t>(std::int64_t{1} << kFractionalBits));
  }
  /// 2^Exponent.
  template <int Exponent>
  static constexpr FixedPoint pot() noexcept {
    static_assert(kFractionalBits + Exponent >= 0 && kFractionalBits + Exponent < kRawBits);
    return from_raw(std::int32_t{1} << (kFractionalBits + Exponent));
  }
  /// A gemmlowp constant written for int32 raw values: as it is on int32, rounded to 16 bits on
  /// int16 (gemmlowp RescaleConstantInitializer).
  static constexpr FixedPoint constant(std::int32_t v32) noexcept {
    if constexpr (kRawBits == 31) {
      return from_raw(v32);
    } else {
      return from_raw(quant::rounding_divide_by_pot(v32, 16));
    }
  }
};

/// The int32 fixed-point numbers of the quantized LOGISTIC, TANH, SOFTMAX and L2_NORMALIZATION.
template <int IntegerBits>
using Fixed = FixedPoint<std::int32_t, IntegerBits>;

/// Two's complement wrap-around, as the int32 additions of the reference behave in practice.
constexpr std::int32_t wrap_add(std::int32_t a, std::int32_t b) noexcept {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}
constexpr std::int32_t wrap_sub(std::int32_t a, std::int32_t b) noexcept {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) - static_cast<std::uint32_t>(b));
}

template <class Raw, int I>
constexpr FixedPoint<Raw, I> operator+(FixedPoint<Raw, I> a, FixedPoint<Raw, I> b) noexcept {
  return FixedPoint<Raw, I>::from_raw(wrap_add(a.raw, b.raw));  // truncated to Raw: wraps on int16 too
}
template <class Raw, int I>
constexpr FixedPoint<Raw, I> operator-(FixedPoint<Raw, I> a, FixedPoint<Raw, I> b) noexcept {
  return FixedPoint<Raw, I>::from_raw(wrap_sub(a.raw, b.raw));
}
template <class Raw, int I>
constexpr FixedPoint<Raw, I> operator-(FixedPoint<Raw, I> a) noexcept {
  return FixedPoint<Raw, I>::from_raw(wrap_sub(0, a.raw));
}
/// The product of Q(A) and Q(B) is Q(A + B): one rounding doubling high multiply.
template <class Raw, int A, int B>
constexpr FixedPoint<Raw, A + B> operator*(FixedPoint<Raw, A> a, FixedPoint<Raw, B> b) noexcept {
  if constexpr (sizeof(Raw) == 4) {
    return FixedPoint<Raw, A + B>::from_raw(quant::saturating_rounding_doubling_high_mul(a.raw, b.raw));
  } else {
    return FixedPoint<Raw, A + B>::from_raw(saturating_rounding_doubling_high_mul16(a.raw, b.raw));
  }
}

/// x * 2^Exponent, rounding to nearest when shifting right and saturating when shifting left.
template <int Exponent, class Raw>
constexpr Raw saturating_rounding_multiply_by_pot(Raw x) noexcept {
  if constexpr (Exponent == 0) {
    return x;
  } else if constexpr (Exponent > 0) {
    constexpr int kRawBits = static_cast<int>(8 * sizeof(Raw)) - 1;
    constexpr std::int32_t threshold = static_cast<std::int32_t>((std::int64_t{1} << (kRawBits - Exponent)) - 1);
    if (x > threshold) return std::numeric_limits<Raw>::max();
    if (x < -threshold) return std::numeric_limits<Raw>::min();
    return static_cast<Raw>(static_cast<std::uint32_t>(x) << Exponent);
  } else {
    return static_cast<Raw>(quant::rounding_divide_by_pot(x, -Exponent));
  }
}

/// The same value with Dst integer bits (gemmlowp Rescale).
template <int Dst, class Raw, int Src>
constexpr FixedPoint<Raw, Dst> rescale(FixedPoint<Raw, Src> x) noexcept {
  return FixedPoint<Raw, Dst>::from_raw(saturating_rounding_multiply_by_pot<Src - Dst>(x.raw));
}

/// (a + b) / 2 rounded to nearest, ties away from zero.
constexpr std::int32_t rounding_half_sum(std::int32_t a, std::int32_t b) noexcept {
  const std::int64_t sum = std::int64_t{a} + std::int64_t{b};
  const std::int64_t sign = sum >= 0 ? 1 : -1;
  return static_cast<std::int32_t>((sum + sign) / 2);
}

/// exp(a) for a in [-1/4, 0): a fourth-order Taylor expansion around -1/8.
template <class Raw>
constexpr FixedPoint<Raw, 0> exp_on_interval_between_negative_one_quarter_and_0_excl(FixedPoint<Raw, 0> a) noexcept {
  using F = FixedPoint<Raw, 0>;
  const F constant_term = F::constant(1895147668);    // exp(-1/8)
  const F constant_1_over_3 = F::constant(715827883);  // 1/3
  const F x = a + F::template pot<-3>();
  const F x2 = rescale<0>(x * x);
  const F x3 = rescale<0>(x2 * x);
  const F x4 = rescale<0>(x2 * x2);
  const F x4_over_4 = F::from_raw(saturating_rounding_multiply_by_pot<-2>(x4.raw));
  const F poly = F::from_raw(
      saturating_rounding_multiply_by_pot<-1>((rescale<0>((x4_over_4 + x3) * constant_1_over_3) + x2).raw));
  return constant_term + rescale<0>(constant_term * (x + poly));
}

/// exp(a) for a <= 0, with no integer bits.
template <class Raw, int I>
constexpr FixedPoint<Raw, 0> exp_on_negative_values(FixedPoint<Raw, I> a) noexcept {
  using InputF = FixedPoint<Raw, I>;
  using ResultF = FixedPoint<Raw, 0>;
  constexpr int kFractionalBits = InputF::kFractionalBits;
  const InputF one_quarter = InputF::template pot<-2>();
  const InputF mask = one_quarter - InputF::from_raw(1);
  const InputF a_mod_quarter_minus_one_quarter = InputF::from_raw(a.raw & mask.raw) - one_quarter;
  ResultF result = exp_on_interval_between_negative_one_quarter_and_0_excl(rescale<0>(a_mod_quarter_minus_one_quarter));
  const std::int32_t remainder = (a_mod_quarter_minus_one_quarter - a).raw;
  // Barrel shifter: multiply by exp(-2^k) for each set bit k of the remainder.
  auto step = [&](int exponent, std::int32_t multiplier) {
    if (I > exponent && (remainder & (std::int32_t{1} << (kFractionalBits + exponent))) != 0)
      result = result * ResultF::constant(multiplier);
  };
  step(-2, 1672461947);  // exp(-1/4)
  step(-1, 1302514674);  // exp(-1/2)
  step(0, 790015084);    // exp(-1)
  step(1, 290630308);    // exp(-2)
  step(2, 39332535);     // exp(-4)
  step(3, 720401);       // exp(-8)
  step(4, 242);          // exp(-16)
  if constexpr (I > 5) {
    const InputF clamp = InputF::constant(-(std::int32_t{1} << (36 - I)));  // -32
    if (a.raw < clamp.raw) result = ResultF::zero();
  }
  if (a.raw == 0) result = ResultF::one();
  return result;
}

/// Newton-Raphson reciprocal shared by the two functions below: returns x ~ 1 / (half of (1 + a))
/// with two integer bits.
template <class Raw>
constexpr FixedPoint<Raw, 2> reciprocal_of_half_denominator(FixedPoint<Raw, 0> half_denominator) noexcept {
  using F2 = FixedPoint<Raw, 2>;
  const F2 constant_48_over_17 = F2::constant(1515870810);
  const F2 constant_neg_32_over_17 = F2::constant(-1010580540);
  F2 x = constant_48_over_17 + half_denominator * constant_neg_32_over_17;
  for (int i = 0; i < 3; ++i) {
    const F2 half_denominator_times_x = half_denominator * x;
    const F2 one_minus_half_denominator_times_x = F2::one() - half_denominator_times_x;
    x = x + rescale<2>(x * one_minus_half_denominator_times_x);
  }
  return x;
}

/// 1 / (1 + a) for a in [0, 1].
template <class Raw>
constexpr FixedPoint<Raw, 0> one_over_one_plus_x_for_x_in_0_1(FixedPoint<Raw, 0> a) noexcept {
  using F = FixedPoint<Raw, 0>;
  const F half_denominator = F::from_raw(rounding_half_sum(a.raw, F::one().raw));
  const FixedPoint<Raw, 2> x = reciprocal_of_half_denominator(half_denominator);
  // ExactMulByPot<-1>: the same raw bits read with one integer bit fewer.
  return rescale<0>(FixedPoint<Raw, 1>::from_raw(x.raw));
}

/// (1 - a) / (1 + a) for a in [0, 1].
template <class Raw>
constexpr FixedPoint<Raw, 0> one_minus_x_over_one_plus_x_for_x_in_0_1(FixedPoint<Raw, 0> a) noexcept {
  using F = FixedPoint<Raw, 0>;
  const F half_denominator = F::from_raw(rounding_half_sum(a.raw, F::one().raw));
  const FixedPoint<Raw, 2> x = reciprocal_of_half_denominator(half_denominator);
  return rescale<0>(x - FixedPoint<Raw, 2>::one());
}

/// 1 / (1 + exp(-a)), with no integer bits.
template <class Raw, int I>
constexpr FixedPoint<Raw, 0> logistic(FixedPoint<Raw, I> a) noexcept {
  using ResultF = FixedPoint<Raw, 0>;
  if (a.raw == 0) return ResultF::constant(std::int32_t{1} << 30);  // 0.5
  const bool positive = a.raw > 0;
  const FixedPoint<Raw, I> abs_input = positive ? a : -a;
  const ResultF result_if_positive = one_over_one_plus_x_for_x_in_0_1(exp_on_negative_values(-abs_input));
  return positive ? result_if_positive : ResultF::one() - result_if_positive;
}

/// tanh(a), with no integer bits.
template <class Raw, int I>
constexpr FixedPoint<Raw, 0> tanh(FixedPoint<Raw, I> a) noexcept {
  if (a.raw == 0) return FixedPoint<Raw, 0>::zero();
  const bool negative = a.raw < 0;
  const FixedPoint<Raw, I> n = negative ? a : -a;
  // ExactMulByPot<1>: 2n, the same raw bits read with one integer bit more.
  const FixedPoint<Raw, 0> t =
      one_minus_x_over_one_plus_x_for_x_in_0_1(exp_on_negative_values(FixedPoint<Raw, I + 1>::from_raw(n.raw)));
  return negative ? -t : t;
}

/// Number of leading zero bits of x (32 for 0).
constexpr int count_leading_zeros(std::uint32_t x) noexcept {
  if (x == 0) return 32;
  int n = 0;
  while ((x & 0x80000000u) == 0) {
    x <<= 1;
    ++n;
  }
  return n;
}

/// 1 / sqrt(input) as a multiplier and a shift (TFLite GetInvSqrtQuantizedMultiplierExp with
/// reverse_shift = -1: the shift is returned as a left shift, <= 0 in practice). Inputs 0 and 1
/// give the largest multiplier and shift 0.
constexpr quant::Multiplier inv_sqrt_multiplier(std::int32_t input) noexcept {
  if (input <= 1) return {std::numeric_limits<std::int32_t>::max(), 0};
  int shift = 11;
  while (input >= (1 << 29)) {
    input /= 4;
    ++shift;
  }
  const int max_left_shift_bits = count_leading_zeros(static_cast<std::uint32_t>(input)) - 1;
  const int left_shift_bit_pairs = max_left_shift_bits / 2 - 1;
  shift -= left_shift_bit_pairs;
  input <<= 2 * left_shift_bit_pairs;
  using F3 = Fixed<3>;
  const F3 fixed_input = F3::from_raw(input >> 1);
  const F3 half_input = F3::from_raw(saturating_rounding_multiply_by_pot<-1>(fixed_input.raw));
  const F3 half_three = F3::from_raw((1 << 28) + (1 << 27));  // 1.5
  F3 x = F3::one();
  for (int i = 0; i < 5; ++i) {
    const F3 x3 = rescale<3>(x * x * x);
    x = rescale<3>(half_three * x - half_input * x3);
  }
  const Fixed<0> half_sqrt_2 = Fixed<0>::from_raw(1518500250);  // sqrt(2) / 2
  x = x * half_sqrt_2;
  std::int32_t value = x.raw;
  if (shift < 0) {
    value = static_cast<std::int32_t>(static_cast<std::uint32_t>(value) << -shift);
    shift = 0;
  }
  return {value, -shift};
}

/// A real multiplier > 1 as Q31 and a left shift >= 0 (the reference's
/// QuantizeMultiplierGreaterThanOne), or nullopt when it is not > 1 or does not fit.
inline std::optional<quant::Multiplier> quantize_multiplier_greater_than_one(double real) noexcept {
  if (!(real > 1.0) || !std::isfinite(real)) return std::nullopt;
  int shift = 0;
  const double q = std::frexp(real, &shift);
  auto q_fixed = static_cast<std::int64_t>(std::round(q * static_cast<double>(1LL << 31)));
  if (q_fixed == (1LL << 31)) {
    q_fixed /= 2;
    ++shift;
  }
  if (shift < 0 || shift > 30 || q_fixed > std::numeric_limits<std::int32_t>::max()) return std::nullopt;
  return quant::Multiplier{static_cast<std::int32_t>(q_fixed), shift};
}

/// Largest |input| (in input steps) whose rescaled value stays below the fixed-point range of
/// `integer_bits` integer bits after a left shift of `left_shift` (reference CalculateInputRadius).
inline std::int32_t input_radius(int integer_bits, int left_shift) noexcept {
  const double max_input_rescaled = 1.0 * ((1 << integer_bits) - 1) *
                                    static_cast<double>(1LL << (31 - integer_bits)) /
                                    static_cast<double>(1LL << left_shift);
  return static_cast<std::int32_t>(std::floor(max_input_rescaled));
}

// ---- quantized HARD_SWISH --------------------------------------------------------------------

/// A Q31 multiplier rounded to Q15 (reference DownScaleInt32ToInt16Multiplier).
constexpr std::int16_t downscale_multiplier_to_int16(std::int32_t m) noexcept {
  constexpr std::int32_t kRoundingOffset = 1 << 15;
  if (m >= std::numeric_limits<std::int32_t>::max() - kRoundingOffset) return std::numeric_limits<std::int16_t>::max();
  return static_cast<std::int16_t>((m + kRoundingOffset) >> 16);
}

}  // namespace nnhal::fixed
