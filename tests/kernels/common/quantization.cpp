#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "nnhal/kernels/common/quantization.hpp"

namespace q = nnhal::quant;

TEST_CASE("saturating_rounding_doubling_high_mul rounds the exact product half up") {
  const std::int32_t values[] = {0, 1, -1, 2, 3, 1000, -1000, 123456789, -987654321,
                                 std::numeric_limits<std::int32_t>::max(),
                                 std::numeric_limits<std::int32_t>::min() + 1, 1 << 30};
  for (std::int32_t a : values)
    for (std::int32_t b : values) {
      // floor(a * b / 2^31 + 1/2) (gemmlowp rounds ties towards +infinity), in long double.
      const long double exact = static_cast<long double>(a) * b / 2147483648.0L;
      const auto want = static_cast<std::int64_t>(std::floor(exact + 0.5L));
      CHECK(q::saturating_rounding_doubling_high_mul(a, b) == want);
    }
  const std::int32_t min = std::numeric_limits<std::int32_t>::min();
  CHECK(q::saturating_rounding_doubling_high_mul(min, min) == std::numeric_limits<std::int32_t>::max());
}

TEST_CASE("rounding_divide_by_pot rounds half away from zero") {
  for (int x = -100; x <= 100; ++x)
    for (int e = 0; e < 5; ++e) {
      const double exact = x / std::ldexp(1.0, e);
      CHECK(q::rounding_divide_by_pot(x, e) == static_cast<int>(std::lround(exact)));
    }
}

TEST_CASE("quantize_multiplier reproduces the real multiplier") {
  for (double real : {0.75, 0.5, 1.0 / 3.0, 1e-6, 2.5, 123.456, 0.999999999}) {
    const auto m = q::quantize_multiplier(real);
    const double back = m.value / 2147483648.0 * std::ldexp(1.0, m.shift);
    CHECK(back == doctest::Approx(real).epsilon(1e-9));
    CHECK(m.value >= (1 << 30));
  }
  CHECK(q::quantize_multiplier(0.0).value == 0);
  // x * 0.75 with rounding.
  const auto m = q::quantize_multiplier(0.75);
  CHECK(q::multiply_by_quantized_multiplier(100, m.value, m.shift) == 75);
  CHECK(q::multiply_by_quantized_multiplier(-3, m.value, m.shift) == -2);  // -2.25 -> -2
  const auto big = q::quantize_multiplier(4.0);
  CHECK(q::multiply_by_quantized_multiplier(10, big.value, big.shift) == 40);
}

TEST_CASE("activation_range clamps in the quantized domain") {
  const auto none = q::activation_range(nnhal::FusedActivationFunc::NONE, 0.5f, 10, 0, 255);
  CHECK(none.min == 0);
  CHECK(none.max == 255);
  const auto relu = q::activation_range(nnhal::FusedActivationFunc::RELU, 0.5f, 10, 0, 255);
  CHECK(relu.min == 10);
  CHECK(relu.max == 255);
  const auto relu6 = q::activation_range(nnhal::FusedActivationFunc::RELU6, 0.5f, 10, 0, 255);
  CHECK(relu6.max == 22);
  const auto relu1 = q::activation_range(nnhal::FusedActivationFunc::RELU1, 0.5f, -128, -128, 127);
  CHECK(relu1.min == -128);
  CHECK(relu1.max == -126);
}

// Regression (found by validate_fuzz): scales of an untrusted model can take a rounded value
// past the int range, where a plain cast is undefined behaviour; the conversions saturate.
TEST_CASE("saturating_int32 and saturating_add_int32 keep every value in range, NaN as 0") {
  constexpr auto lo = std::numeric_limits<std::int32_t>::min(), hi = std::numeric_limits<std::int32_t>::max();
  CHECK(q::saturating_int32(4.325e31) == hi);
  CHECK(q::saturating_int32(-4.325e31) == lo);
  CHECK(q::saturating_int32(std::numeric_limits<double>::infinity()) == hi);
  CHECK(q::saturating_int32(std::nan("")) == 0);
  CHECK(q::saturating_int32(2147483647.0) == hi);
  CHECK(q::saturating_int32(-2147483648.0) == lo);
  for (double v : {0.0, 1.0, -1.0, 255.0, -128.0, 123456789.0, -987654321.0})
    CHECK(q::saturating_int32(v) == static_cast<std::int32_t>(v));
  CHECK(q::saturating_add_int32(hi, 10) == hi);
  CHECK(q::saturating_add_int32(lo, -10) == lo);
  CHECK(q::saturating_add_int32(100, -30) == 70);
}

TEST_CASE("activation_range with a scale so small that 6 / scale is not an int saturates") {
  const auto relu6 = q::activation_range(nnhal::FusedActivationFunc::RELU6, 1e-38f, 10, 0, 255);
  CHECK(relu6.min == 10);
  CHECK(relu6.max == 255);
  const auto relu1 = q::activation_range(nnhal::FusedActivationFunc::RELU1, 1e-38f, 0, -128, 127);
  CHECK(relu1.min == -128);
  CHECK(relu1.max == 127);
}
