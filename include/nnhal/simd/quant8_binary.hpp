#pragma once
/// \file
/// SIMD family: the 8-bit quantized ADD / SUB / MUL of TENSOR_QUANT8_ASYMM (uint8) and
/// TENSOR_QUANT8_ASYMM_SIGNED (int8), same-shape operands or a scalar second operand, with the
/// fused activation clamp, compiled for every target (nnhal/simd/dispatch.hpp). Results are
/// bit for bit the reference's (TFLite / NNAPI) integer arithmetic:
///
///   ADD/SUB: s_a = rdbp(srdhm((a + a_offset) << 20, a_multiplier), a_right)   (same for b)
///            out = clamp(requant(s_a + s_b) + out_offset, min, max)
///   MUL:     out = clamp(requant((a + a_offset) * (b + b_offset)) + out_offset, min, max)
///   requant(x) = rdbp(srdhm(x << out_left, out_multiplier), out_right)
///
/// with srdhm = SaturatingRoundingDoublingHighMul and rdbp = RoundingDivideByPOT. SUB is ADD
/// with a negated b_multiplier. How the per-target code gets these exactly is described in
/// nnhal/simd/quant8_binary-inl.h.

#include <cstddef>
#include <cstdint>

#include "nnhal/simd/dispatch.hpp"

namespace nnhal::simd {

/// Parameters of quantized ADD / SUB. Preconditions: a_right, b_right and out_right in
/// [0, 31], out_left in [0, 31], out_multiplier != INT32_MIN, min <= max within the element
/// type's range.
struct Quant8AddParams {
  std::int32_t a_offset, b_offset;          ///< minus the inputs' zero points
  std::int32_t a_multiplier, b_multiplier;  ///< Q31 input rescales (b negated for SUB)
  std::int32_t a_right, b_right;            ///< their right shifts
  std::int32_t out_multiplier;              ///< Q31 output rescale
  std::int32_t out_left, out_right;         ///< its left and right shifts (one of them 0)
  std::int32_t out_offset;                  ///< the output's zero point
  std::int32_t min, max;                    ///< activation clamp, in output steps
};

/// Parameters of quantized MUL; the same preconditions on the output fields.
struct Quant8MulParams {
  std::int32_t a_offset, b_offset;
  std::int32_t out_multiplier;
  std::int32_t out_left, out_right;
  std::int32_t out_offset;
  std::int32_t min, max;
};

/// The family's entry points for one target. Each computes out[i] = op(a[i], b[i]) for i < n,
/// or op(a[i], b[0]) when b_scalar. `out` may equal `a`; n may be 0.
struct Quant8Binary {
  void (*add_u8)(const std::uint8_t* a, const std::uint8_t* b, bool b_scalar, std::uint8_t* out, std::size_t n,
                 const Quant8AddParams& p);
  void (*add_i8)(const std::int8_t* a, const std::int8_t* b, bool b_scalar, std::int8_t* out, std::size_t n,
                 const Quant8AddParams& p);
  void (*mul_u8)(const std::uint8_t* a, const std::uint8_t* b, bool b_scalar, std::uint8_t* out, std::size_t n,
                 const Quant8MulParams& p);
  void (*mul_i8)(const std::int8_t* a, const std::int8_t* b, bool b_scalar, std::int8_t* out, std::size_t n,
                 const Quant8MulParams& p);
  /// out[i] = rdbp(srdhm(x[i] << left, multiplier), right), the family's vector requantization
  /// (exposed for its tests); the same preconditions as the output fields above.
  void (*requant)(const std::int32_t* x, std::int32_t* out, std::size_t n, std::int32_t multiplier,
                  std::int32_t left, std::int32_t right);
};

/// Overloads by element type, for templates over the operand type.
inline void quant8_add(const Quant8Binary& t, const std::uint8_t* a, const std::uint8_t* b, bool b_scalar,
                       std::uint8_t* out, std::size_t n, const Quant8AddParams& p) noexcept {
  t.add_u8(a, b, b_scalar, out, n, p);
}
inline void quant8_add(const Quant8Binary& t, const std::int8_t* a, const std::int8_t* b, bool b_scalar,
                       std::int8_t* out, std::size_t n, const Quant8AddParams& p) noexcept {
  t.add_i8(a, b, b_scalar, out, n, p);
}
inline void quant8_mul(const Quant8Binary& t, const std::uint8_t* a, const std::uint8_t* b, bool b_scalar,
                       std::uint8_t* out, std::size_t n, const Quant8MulParams& p) noexcept {
  t.mul_u8(a, b, b_scalar, out, n, p);
}
inline void quant8_mul(const Quant8Binary& t, const std::int8_t* a, const std::int8_t* b, bool b_scalar,
                       std::int8_t* out, std::size_t n, const Quant8MulParams& p) noexcept {
  t.mul_i8(a, b, b_scalar, out, n, p);
}

}  // namespace nnhal::simd

#define NNHAL_SIMD_FAMILY_INL "nnhal/simd/quant8_binary-inl.h"
#include "nnhal/simd/foreach_target-inl.h"
#undef NNHAL_SIMD_FAMILY_INL

namespace nnhal::simd {

/// The family's entry points compiled for `target` (default: the one this process runs). A
/// template, like the per-target tables, so that only a program that calls it compiles them.
template <int I = 0>
inline const Quant8Binary& quant8_binary(std::int64_t target = chosen_target()) noexcept {
  static constexpr PerTarget<Quant8Binary> kTables[] = NNHAL_SIMD_PER_TARGET(kQuant8Binary<I>);
  return pick(kTables, target);
}

}  // namespace nnhal::simd
