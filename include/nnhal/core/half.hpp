#pragma once
/// \file
/// IEEE 754 binary16 storage type. Arithmetic happens in float: the compilers nnhal supports
/// do not all provide a native half type on every target (clang 14 has no _Float16 on x86).

#include <bit>
#include <cstdint>
#include <cstring>

namespace nnhal {

/// A half-precision value stored as its 16 raw bits; converts to and from float with
/// round-to-nearest-even.
struct Half {
  std::uint16_t bits = 0;

  constexpr Half() noexcept = default;
  /// Rounds `f` to the nearest representable half (ties to even).
  constexpr explicit Half(float f) noexcept : bits(from_float(f)) {}
  /// Builds a half from its raw bit pattern.
  static constexpr Half from_bits(std::uint16_t b) noexcept {
    Half h;
    h.bits = b;
    return h;
  }
  /// Exact conversion to float.
  constexpr explicit operator float() const noexcept { return to_float(bits); }

  static constexpr float to_float(std::uint16_t h) noexcept {
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    const std::uint32_t exp = (h >> 10) & 0x1Fu;
    std::uint32_t mant = h & 0x3FFu;
    std::uint32_t out = 0;
    if (exp == 0x1Fu) {
      out = sign | 0x7F800000u | (mant << 13);  // inf / nan
    } else if (exp != 0) {
      out = sign | ((exp + 112u) << 23) | (mant << 13);
    } else if (mant != 0) {  // subnormal: normalise
      std::uint32_t e = 113;
      while ((mant & 0x400u) == 0) {
        mant <<= 1;
        --e;
      }
      out = sign | (e << 23) | ((mant & 0x3FFu) << 13);
    } else {
      out = sign;
    }
    return std::bit_cast<float>(out);
  }

  static constexpr std::uint16_t from_float(float f) noexcept {
    const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
    const std::uint16_t sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
    const std::uint32_t absx = x & 0x7FFFFFFFu;
    if (absx >= 0x7F800000u) {  // inf or nan
      return static_cast<std::uint16_t>(sign | 0x7C00u | (absx > 0x7F800000u ? 0x200u : 0u));
    }
    if (absx >= 0x477FF000u) return static_cast<std::uint16_t>(sign | 0x7C00u);  // overflow
    if (absx < 0x38800000u) {  // result is subnormal or zero
      if (absx < 0x33000000u) return sign;  // below half the smallest subnormal
      const std::uint32_t e = absx >> 23;
      const std::uint32_t mant = (absx & 0x7FFFFFu) | 0x800000u;
      const std::uint32_t shift = 126u - e;  // value * 2^24 == mant >> shift
      const std::uint32_t rem = mant & ((1u << shift) - 1u);
      const std::uint32_t halfway = 1u << (shift - 1u);
      std::uint32_t r = mant >> shift;
      if (rem > halfway || (rem == halfway && (r & 1u) != 0)) ++r;
      return static_cast<std::uint16_t>(sign | r);
    }
    std::uint32_t r = ((absx >> 13) - (112u << 10));  // rebias exponent, keep 10 mantissa bits
    const std::uint32_t rem = absx & 0x1FFFu;
    if (rem > 0x1000u || (rem == 0x1000u && (r & 1u) != 0)) ++r;
    return static_cast<std::uint16_t>(sign | r);
  }
};

static_assert(sizeof(Half) == 2);

}  // namespace nnhal
