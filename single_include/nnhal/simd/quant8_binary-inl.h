// Per-target body of nnhal's 8-bit quantized ADD / SUB / MUL: compiled once per Highway target
// by nnhal/simd/quant8_binary.hpp (through nnhal/simd/foreach_target-inl.h), which declares
// simd::Quant8Binary first. Not a header to include on its own; it has no include guard on
// purpose.
//
// Exactness. Every step is the reference's integer operation, done in int32 lanes (N = the
// target's int32 lanes per vector; the 8-bit inputs are widened, the results narrowed):
//
//  - SaturatingRoundingDoublingHighMul(a, b) = (a * b + nudge) / 2^31, the division truncating,
//    nudge = 2^30 for a product >= 0 and 1 - 2^30 below. For either sign that equals
//    floor((a * b + 2^30) / 2^31) (write a * b = 2^31 q + r, 0 <= r < 2^31: both are
//    q + (r >= 2^30)). The only saturating case is a = b = INT32_MIN, excluded by the
//    preconditions (quantize_multiplier never gives INT32_MIN, nor its negation). So
//    Srdhm() takes the 64-bit products of the even and of the odd lanes (MulEven, on the odd
//    lanes shifted down), adds 2^30 and keeps bits 31..62: a logical shift right by 31 for
//    the even lanes (their low half), a shift left by 1 for the odd ones (their high half),
//    merged by OddEven. Four multiplies' worth of work per N lanes, no saturation logic.
//  - RoundingDivideByPOT(x, e) = (x >> e) + (x & mask > (mask >> 1) + (x < 0)), as written.
//  - ADD's input stage: srdhm(v << 20, m) for v = a + offset in [-255, 255] is
//    floor((v * m + 2^10) / 2^11) (the 2^20 cancels exactly); with m = mh * 2^11 + ml
//    (mh = m >> 11 arithmetic, 0 <= ml < 2^11) it is v * mh + floor((v * ml + 2^10) / 2^11),
//    and |v * mh| < 2^28, |v * ml| < 2^19: two 32-bit multiplies and a shift, no 64-bit
//    product. (A prepare-time int32[256] table per input was the alternative; a gather per
//    element is slower than these few ops on every x86 target.)
//  - MUL's product (a + offset_a) * (b + offset_b) is below 2^16 in magnitude: one 32-bit
//    multiply.
//  - The output stage (sum << left, wrapping as the reference's uint32 shift does, srdhm,
//    rdbp, + zero point, clamp) is the vector form of the same steps; the clamp brings the
//    value into the 8-bit range before the narrowing.
// The last n % N elements go through a padded copy on the stack (Highway 1.0's MaskedLoad /
// BlendedStore touch the whole vector on some targets): nothing past `n` is read or written.
// HWY_SCALAR (one lane) runs the scalar form of the same steps.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace nnhal::HWY_NAMESPACE {
namespace quant8_binary_detail {
namespace hn = hwy::HWY_NAMESPACE;

// ---- scalar steps (HWY_SCALAR, and the definition the vector code follows) -------------------

HWY_INLINE std::int32_t SrdhmScalar(std::int32_t a, std::int32_t b) {
  const std::int64_t ab = static_cast<std::int64_t>(a) * static_cast<std::int64_t>(b);
  return static_cast<std::int32_t>((ab + (std::int64_t{1} << 30)) >> 31);
}

HWY_INLINE std::int32_t RdbpScalar(std::int32_t x, std::int32_t e) {
  const auto mask = static_cast<std::int32_t>((std::int64_t{1} << e) - 1);
  const std::int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> e) + ((x & mask) > threshold ? 1 : 0);
}

HWY_INLINE std::int32_t RequantScalar(std::int32_t x, std::int32_t m, std::int32_t left, std::int32_t right) {
  const auto shifted = static_cast<std::int32_t>(static_cast<std::uint32_t>(x) << left);
  return RdbpScalar(SrdhmScalar(shifted, m), right);
}

HWY_INLINE std::int32_t ClampScalar(std::int32_t x, std::int32_t lo, std::int32_t hi) {
  return x < lo ? lo : (x > hi ? hi : x);
}

HWY_INLINE std::int32_t AddScalar(std::int32_t a, std::int32_t b, const simd::Quant8AddParams& p) {
  const std::int32_t sa = RdbpScalar(SrdhmScalar((a + p.a_offset) * (1 << 20), p.a_multiplier), p.a_right);
  const std::int32_t sb = RdbpScalar(SrdhmScalar((b + p.b_offset) * (1 << 20), p.b_multiplier), p.b_right);
  return ClampScalar(RequantScalar(sa + sb, p.out_multiplier, p.out_left, p.out_right) + p.out_offset, p.min, p.max);
}

HWY_INLINE std::int32_t MulScalar(std::int32_t a, std::int32_t b, const simd::Quant8MulParams& p) {
  const std::int32_t prod = (a + p.a_offset) * (b + p.b_offset);
  return ClampScalar(RequantScalar(prod, p.out_multiplier, p.out_left, p.out_right) + p.out_offset, p.min, p.max);
}

#if HWY_TARGET != HWY_SCALAR

// ---- vector steps ------------------------------------------------------------------------------

/// srdhm(x, m) per int32 lane for m the same in every lane (see the file comment); m must not
/// be INT32_MIN.
template <class D, class V>
HWY_INLINE V Srdhm(D d, V x, V m) {
  const hn::Repartition<std::int64_t, D> d64;
  const hn::Repartition<std::uint64_t, D> du64;
  const auto nudge = hn::Set(d64, std::int64_t{1} << 30);
  const auto even = hn::Add(hn::MulEven(x, m), nudge);
  const V x_odd = hn::BitCast(d, hn::ShiftRight<32>(hn::BitCast(du64, x)));
  const auto odd = hn::Add(hn::MulEven(x_odd, m), nudge);  // m is in every lane
  const auto lo = hn::ShiftRight<31>(hn::BitCast(du64, even));  // result in the low halves
  const auto hi = hn::ShiftLeft<1>(hn::BitCast(du64, odd));     // result in the high halves
  return hn::OddEven(hn::BitCast(d, hi), hn::BitCast(d, lo));
}

/// rdbp(x, e) per lane with the precomputed mask = 2^e - 1 and half = mask >> 1.
template <class D, class V>
HWY_INLINE V Rdbp(D d, V x, int e, V mask, V half) {
  const V threshold = hn::Sub(half, hn::ShiftRight<31>(x));  // + 1 where x < 0
  const V up = hn::VecFromMask(d, hn::Gt(hn::And(x, mask), threshold));  // -1 where rounding up
  return hn::Sub(hn::ShiftRightSame(x, e), up);
}

/// A right shift by e, its mask and half mask as vectors.
template <class D>
struct RightShift {
  using V = hn::Vec<D>;
  int e;
  V mask, half;
  RightShift(D d, std::int32_t shift)
      : e(shift),
        mask(hn::Set(d, static_cast<std::int32_t>((std::int64_t{1} << shift) - 1))),
        half(hn::Set(d, static_cast<std::int32_t>(((std::int64_t{1} << shift) - 1) >> 1))) {}
  HWY_INLINE V operator()(D d, V x) const { return Rdbp(d, x, e, mask, half); }
};

/// The output stage: requant, + zero point, clamp. Steps that are the identity for the node's
/// parameters are left out at compile time: the left shift when it is 0, the rounding right
/// shift when it is 0. (The clamp stays: the narrowing's saturation is not the reference's
/// clamp when the int32 value is far out of range.)
template <class D, bool kLeft, bool kRight>
struct OutputStage {
  using V = hn::Vec<D>;
  int left;
  V multiplier, offset, min, max;
  RightShift<D> right;
  OutputStage(D d, std::int32_t m, std::int32_t l, std::int32_t r, std::int32_t off, std::int32_t lo,
              std::int32_t hi)
      : left(l), multiplier(hn::Set(d, m)), offset(hn::Set(d, off)), min(hn::Set(d, lo)), max(hn::Set(d, hi)),
        right(d, r) {}
  HWY_INLINE V operator()(D d, V x) const {
    if constexpr (kLeft) x = hn::ShiftLeftSame(x, left);
    V r = Srdhm(d, x, multiplier);
    if constexpr (kRight) r = right(d, r);
    r = hn::Add(r, offset);
    return hn::Min(hn::Max(r, min), max);
  }
};

/// ADD's input stage for one operand: rdbp(srdhm((x + offset) << 20, m), right); kLow: the
/// multiplier's low 11 bits are not all 0 (equal input scales give m = 2^30, where they are),
/// kRight: the right shift is not 0.
template <class D, bool kLow, bool kRight>
struct AddInputStage {
  using V = hn::Vec<D>;
  V mh, ml, c_hi, c_lo;
  RightShift<D> right;
  AddInputStage(D d, std::int32_t offset, std::int32_t m, std::int32_t r)
      : mh(hn::Set(d, m >> 11)),
        ml(hn::Set(d, m & 2047)),
        c_hi(hn::Set(d, offset * (m >> 11))),
        c_lo(hn::Set(d, offset * (m & 2047) + 1024)),
        right(d, r) {}
  HWY_INLINE V operator()(D d, V x) const {
    // (x + offset) * mh + ((x + offset) * ml + 2^10 >> 11), offsets folded into the constants;
    // with ml = 0 the second term is 2^10 >> 11 = 0.
    V s = hn::Add(hn::Mul(x, mh), c_hi);
    if constexpr (kLow) s = hn::Add(s, hn::ShiftRight<11>(hn::Add(hn::Mul(x, ml), c_lo)));
    if constexpr (kRight) s = right(d, s);
    return s;
  }
};

/// Calls f(bool constants...) with each runtime flag turned into a std::bool_constant.
template <class F>
HWY_INLINE void WithFlags(F&& f) {
  f();
}
template <class F, class... Rest>
HWY_INLINE void WithFlags(F&& f, bool flag, Rest... rest) {
  if (flag)
    WithFlags([&](auto... c) { f(std::true_type{}, c...); }, rest...);
  else
    WithFlags([&](auto... c) { f(std::false_type{}, c...); }, rest...);
}

/// out[i] = f(widened a[i], widened b[i] or b0) over n elements, N int32 lanes at a time;
/// f returns clamped int32 lanes. The tail goes through padded stack copies.
template <class E, class F>
HWY_INLINE void Binary8(const E* a, const E* b, bool b_scalar, E* out, std::size_t n, const F& f) {
  const hn::ScalableTag<std::int32_t> d;
  const hn::Rebind<E, decltype(d)> d8;
  const std::size_t N = hn::Lanes(d);
  const std::size_t full = n - n % N, rest = n - full;
  if (b_scalar) {
    const auto vb = hn::Set(d, static_cast<std::int32_t>(b[0]));
    for (std::size_t i = 0; i < full; i += N) {
      const auto va = hn::PromoteTo(d, hn::LoadU(d8, a + i));
      hn::StoreU(hn::DemoteTo(d8, f(d, va, vb)), d8, out + i);
    }
    if (rest != 0) {
      HWY_ALIGN E ta[HWY_MAX_BYTES / sizeof(std::int32_t)] = {};
      std::memcpy(ta, a + full, rest * sizeof(E));
      const auto r = f(d, hn::PromoteTo(d, hn::Load(d8, ta)), vb);
      hn::Store(hn::DemoteTo(d8, r), d8, ta);
      std::memcpy(out + full, ta, rest * sizeof(E));
    }
    return;
  }
  for (std::size_t i = 0; i < full; i += N) {
    const auto va = hn::PromoteTo(d, hn::LoadU(d8, a + i));
    const auto vb = hn::PromoteTo(d, hn::LoadU(d8, b + i));
    hn::StoreU(hn::DemoteTo(d8, f(d, va, vb)), d8, out + i);
  }
  if (rest != 0) {
    HWY_ALIGN E ta[HWY_MAX_BYTES / sizeof(std::int32_t)] = {};
    HWY_ALIGN E tb[HWY_MAX_BYTES / sizeof(std::int32_t)] = {};
    std::memcpy(ta, a + full, rest * sizeof(E));
    std::memcpy(tb, b + full, rest * sizeof(E));
    const auto r = f(d, hn::PromoteTo(d, hn::Load(d8, ta)), hn::PromoteTo(d, hn::Load(d8, tb)));
    hn::Store(hn::DemoteTo(d8, r), d8, ta);
    std::memcpy(out + full, ta, rest * sizeof(E));
  }
}

template <class E>
HWY_INLINE void Add8(const E* a, const E* b, bool b_scalar, E* out, std::size_t n, const simd::Quant8AddParams& p) {
  using D = hn::ScalableTag<std::int32_t>;
  const bool low = ((p.a_multiplier | (b_scalar ? 0 : p.b_multiplier)) & 2047) != 0;
  const bool in_right = p.a_right != 0 || (!b_scalar && p.b_right != 0);
  WithFlags(
      [&](auto k_low, auto k_in_right, auto k_left, auto k_right) {
        const D d;
        const AddInputStage<D, decltype(k_low)::value, decltype(k_in_right)::value> in_a(d, p.a_offset, p.a_multiplier, p.a_right);
        const AddInputStage<D, decltype(k_low)::value, decltype(k_in_right)::value> in_b(d, p.b_offset, p.b_multiplier, p.b_right);
        const OutputStage<D, decltype(k_left)::value, decltype(k_right)::value> out_stage(d, p.out_multiplier, p.out_left, p.out_right,
                                                                       p.out_offset, p.min, p.max);
        if (b_scalar) {
          // The scalar operand's rescale once, as a constant vector.
          const std::int32_t sb =
              RdbpScalar(SrdhmScalar((b[0] + p.b_offset) * (1 << 20), p.b_multiplier), p.b_right);
          const auto vsb = hn::Set(d, sb);
          Binary8(a, b, true, out, n,
                  [&](D dd, hn::Vec<D> va, hn::Vec<D>) { return out_stage(dd, hn::Add(in_a(dd, va), vsb)); });
          return;
        }
        Binary8(a, b, false, out, n, [&](D dd, hn::Vec<D> va, hn::Vec<D> vb) {
          return out_stage(dd, hn::Add(in_a(dd, va), in_b(dd, vb)));
        });
      },
      low, in_right, p.out_left != 0, p.out_right != 0);
}

template <class E>
HWY_INLINE void Mul8(const E* a, const E* b, bool b_scalar, E* out, std::size_t n, const simd::Quant8MulParams& p) {
  using D = hn::ScalableTag<std::int32_t>;
  WithFlags(
      [&](auto k_left, auto k_right) {
        const D d;
        const auto off_a = hn::Set(d, p.a_offset), off_b = hn::Set(d, p.b_offset);
        const OutputStage<D, decltype(k_left)::value, decltype(k_right)::value> out_stage(d, p.out_multiplier, p.out_left, p.out_right,
                                                                       p.out_offset, p.min, p.max);
        Binary8(a, b, b_scalar, out, n, [&](D dd, hn::Vec<D> va, hn::Vec<D> vb) {
          return out_stage(dd, hn::Mul(hn::Add(va, off_a), hn::Add(vb, off_b)));
        });
      },
      p.out_left != 0, p.out_right != 0);
}

#else  // HWY_SCALAR: the scalar steps

template <class E>
HWY_INLINE void Add8(const E* a, const E* b, bool b_scalar, E* out, std::size_t n, const simd::Quant8AddParams& p) {
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<E>(AddScalar(a[i], b[b_scalar ? 0 : i], p));
}

template <class E>
HWY_INLINE void Mul8(const E* a, const E* b, bool b_scalar, E* out, std::size_t n, const simd::Quant8MulParams& p) {
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<E>(MulScalar(a[i], b[b_scalar ? 0 : i], p));
}

#endif  // HWY_TARGET != HWY_SCALAR

}  // namespace quant8_binary_detail

inline void Quant8AddU8(const std::uint8_t* a, const std::uint8_t* b, bool b_scalar, std::uint8_t* out, std::size_t n,
                        const simd::Quant8AddParams& p) {
  quant8_binary_detail::Add8(a, b, b_scalar, out, n, p);
}
inline void Quant8AddI8(const std::int8_t* a, const std::int8_t* b, bool b_scalar, std::int8_t* out, std::size_t n,
                        const simd::Quant8AddParams& p) {
  quant8_binary_detail::Add8(a, b, b_scalar, out, n, p);
}
inline void Quant8MulU8(const std::uint8_t* a, const std::uint8_t* b, bool b_scalar, std::uint8_t* out, std::size_t n,
                        const simd::Quant8MulParams& p) {
  quant8_binary_detail::Mul8(a, b, b_scalar, out, n, p);
}
inline void Quant8MulI8(const std::int8_t* a, const std::int8_t* b, bool b_scalar, std::int8_t* out, std::size_t n,
                        const simd::Quant8MulParams& p) {
  quant8_binary_detail::Mul8(a, b, b_scalar, out, n, p);
}

inline void Quant8Requant(const std::int32_t* x, std::int32_t* out, std::size_t n, std::int32_t multiplier,
                          std::int32_t left, std::int32_t right) {
  namespace qd = quant8_binary_detail;
#if HWY_TARGET != HWY_SCALAR
  namespace hn = hwy::HWY_NAMESPACE;
  using D = hn::ScalableTag<std::int32_t>;
  const D d;
  const std::size_t N = hn::Lanes(d);
  const std::size_t full = n - n % N, rest = n - full;
  const auto m = hn::Set(d, multiplier);
  const qd::RightShift<D> shift(d, right);
  for (std::size_t i = 0; i < full; i += N)
    hn::StoreU(shift(d, qd::Srdhm(d, hn::ShiftLeftSame(hn::LoadU(d, x + i), static_cast<int>(left)), m)), d, out + i);
  if (rest != 0) {
    HWY_ALIGN std::int32_t t[HWY_MAX_BYTES / sizeof(std::int32_t)] = {};
    std::memcpy(t, x + full, rest * sizeof(std::int32_t));
    hn::Store(shift(d, qd::Srdhm(d, hn::ShiftLeftSame(hn::Load(d, t), static_cast<int>(left)), m)), d, t);
    std::memcpy(out + full, t, rest * sizeof(std::int32_t));
  }
#else
  for (std::size_t i = 0; i < n; ++i) out[i] = qd::RequantScalar(x[i], multiplier, left, right);
#endif
}

/// This target's table of the family.
inline constexpr simd::Quant8Binary kQuant8Binary{&Quant8AddU8, &Quant8AddI8, &Quant8MulU8, &Quant8MulI8,
                                                  &Quant8Requant};

}  // namespace nnhal::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
