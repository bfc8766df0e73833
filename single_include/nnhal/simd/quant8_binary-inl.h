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
// On AVX-512 targets most parameter sets take the faster forms of the section "AVX-512" below
// (one 64-bit or int16-split rounding for the output stage, 16-bit pairs and vpdpwssd for the
// inputs on AVX3_DL, packed narrowing), exact by the arguments given there; the others (left
// shift, right shift 0 or above 22) take the steps above.
// The last n % N elements go through a padded copy on the stack (Highway 1.0's MaskedLoad /
// BlendedStore touch the whole vector on some targets): nothing past `n` is read or written.
// HWY_SCALAR (one lane) runs the scalar form of the same steps.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
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

#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
// ---- AVX-512: 64 elements a step, one 64-bit rounding, packed narrowing ------------------------
//
// Output stage. With x the int32 sum (ADD) or product (MUL), no left shift, right shift e in
// [1, 22], P = x * m + 2^30: srdhm is floor(P / 2^31) (above), and RoundingDivideByPOT(s, e)
// = floor((s + 2^(e-1) - [s < 0]) / 2^e) with [s < 0] = [P < 0]; since
// floor((floor(y) + k) / n) = floor((y + k) / n) for integers k, n > 0, both are one floor:
//   r = floor((x * m + 2^30 + 2^(30+e) - 2^31 [x * m < -2^30]) / 2^(31+e)),
// and r + offset = floor((... + offset * 2^(31+e)) / 2^(31+e)). When the producer gives X with
// x = X * 2^k exactly (k < e, no wrap) every term divides by 2^k: r + offset =
// floor((X * m + Bk - Nk [X * m < -2^(30-k)]) / 2^S) with Bk = (2^30 + 2^(30+e) + offset * 2^(31+e))
// / 2^k, Nk = 2^(31-k), S = 31 + e - k >= 32. |X * m| < 2^61 and |Bk| < 2^62 (e <= 22, |offset|
// < 256) keep the sum inside int64. The even lanes' 64-bit sums are shifted right by S (result
// in their low halves), the odd lanes' by S - 32 (result in their high halves): one blend joins
// them. The preconditions are checked at setup (Out512::make); other parameters take the
// general path below.
//
// Narrowing: four result vectors are packed with signed saturation to 16 bits, then to E with
// E's saturation (which leaves the clamp to [min, max], inside E's range, unchanged), clamped
// as 64 bytes and put in order by one dword permutation, then stored as 64 bytes.
//
// Producers (X for 16 lanes from the raw 8-bit inputs):
//  - general ADD: the input stages above (AddInputStage, all steps; with ml = 0 or e = 0 they
//    leave the value unchanged), k = 0;
//  - general MUL: (a + a_offset) * (b + b_offset), k = 0;
//  - AVX3_DL, linear: when each input stage is exact, s = (v + offset) * h with
//    h = (m >> 11) >> right (m's low 11 bits zero and m >> 11 divisible by 2^right: then srdhm
//    and rdbp divide exactly; equal input scales give m = 2^30, right = 0), x = X * 2^k with
//    X = a * wa + b * wb + c, wa = h_a / 2^k, wb = h_b / 2^k fitting int16: one byte permutation
//    puts (a, b) as two 16-bit words in each int32 lane, one vpdpwssd (vpmaddwd + add without
//    AVX512-VNNI) gives X. A scalar second operand is the constant s_b folded into c (its lane
//    word gets weight 0), and MUL with a scalar second operand is linear in a with k = 0.
//  - AVX3_DL, rounding ADD (input multipliers with |m| >= 2^30 or 0, right shifts <= 20, e.g.
//    unequal input scales): each input stage from the same (a, b) lanes in 16-bit halves of m,
//    two vpdpwssd and a few shifts (RoundedInput), k = 0;
//  - AVX3_DL, MUL: the same (a, b) lanes; X = (a + oa)(b + ob) = c + a * ob + b * oa + a * b:
//    one vpdpwssd with (ob, oa), one with (b, 0) (the lanes shifted right by 16).
//  Signed inputs are flipped to unsigned bytes (x ^ 0x80 = x + 128) before the permutation and
//  the offsets lowered by 128, so every word is in [0, 255] and every product fits.

/// Narrows r0..r3 (elements 0..63 in order, int32) to E, clamps them to [lo, hi] (bytes) and
/// stores the 64 results at p.
template <class E>
HWY_INLINE void Narrow4(__m512i r0, __m512i r1, __m512i r2, __m512i r3, __m512i lo, __m512i hi, __m512i order, E* p) {
  const __m512i w01 = _mm512_packs_epi32(r0, r1), w23 = _mm512_packs_epi32(r2, r3);
  __m512i b;
  if constexpr (std::is_signed_v<E>) {
    b = _mm512_min_epi8(_mm512_max_epi8(_mm512_packs_epi16(w01, w23), lo), hi);
  } else {
    b = _mm512_min_epu8(_mm512_max_epu8(_mm512_packus_epi16(w01, w23), lo), hi);
  }
  // 128-bit lane j holds elements 4j..4j+3 of r0..r3: the transposing permutation restores the order
  _mm512_storeu_si512(p, _mm512_permutexvar_epi32(order, b));
}

struct Out512 {
  __m512i m, add, neg, limit, lo, hi, order;
  __m512i sh_even, sh_odd;  // per-lane counts: vpsravq is one uop, a shift by an xmm count two

  /// false when the parameters are outside this stage's preconditions.
  template <class E>
  static bool make(std::int32_t mult, std::int32_t left, std::int32_t e, std::int32_t off, std::int32_t lo,
                   std::int32_t hi, int k, Out512& o) {
    if (left != 0 || e < 1 || e > 22 || k < 0 || k >= e || mult == INT32_MIN || off <= -256 || off >= 256)
      return false;
    const std::int64_t add = ((std::int64_t{1} << 30) + (std::int64_t{1} << (30 + e)) +
                              static_cast<std::int64_t>(off) * (std::int64_t{1} << (31 + e))) /
                             (std::int64_t{1} << k);  // exact: every term is a multiple of 2^k
    o.m = _mm512_set1_epi64(mult);
    o.add = _mm512_set1_epi64(add);
    o.neg = _mm512_set1_epi64(std::int64_t{1} << (31 - k));
    o.limit = _mm512_set1_epi64(-(std::int64_t{1} << (30 - k)));
    o.sh_even = _mm512_set1_epi64(31 + e - k);
    o.sh_odd = _mm512_set1_epi64(31 + e - k - 32);
    o.lo = _mm512_set1_epi8(static_cast<char>(lo));
    o.hi = _mm512_set1_epi8(static_cast<char>(hi));
    o.order = _mm512_set_epi32(15, 11, 7, 3, 14, 10, 6, 2, 13, 9, 5, 1, 12, 8, 4, 0);
    return true;
  }

  /// r + offset per int32 lane (not clamped): Rescale64 (simd/base-inl.h), one multiplier and
  /// one constant for every lane.
  HWY_INLINE __m512i rescale(__m512i x) const { return Rescale64(x, m, m, add, add, sh_even, sh_odd, limit, neg); }

  /// Rescales x[0..3] (elements 0..63 in order), narrows, clamps and stores 64 E at p.
  template <class E>
  HWY_INLINE void store4(const __m512i* x, E* p) const {
    Narrow4(rescale(x[0]), rescale(x[1]), rescale(x[2]), rescale(x[3]), lo, hi, order, p);
  }
};

/// Widens 16 E at p to int32 lanes.
template <class E>
HWY_INLINE __m512i Widen16(const E* p) {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  if constexpr (std::is_signed_v<E>) return _mm512_cvtepi8_epi32(v);
  else return _mm512_cvtepu8_epi32(v);
}

/// Runs prod(a + i, b + i or b, X) (X: 4 vectors for elements i..i+63) and the output stage
/// over n elements; the last n % 64 go through padded stack copies.
template <class E, class Prod, class Out>
HWY_INLINE void Loop512(const E* a, const E* b, bool b_scalar, E* out, std::size_t n, const Prod& prod,
                        const Out& os) {
  std::size_t i = 0;
  __m512i x[4];
  for (; i + 64 <= n; i += 64) {
    prod(a + i, b_scalar ? b : b + i, x);
    os.store4(x, out + i);
  }
  if (i < n) {
    const std::size_t rest = n - i;
    alignas(64) E ta[64] = {};
    alignas(64) E tb[64] = {};
    std::memcpy(ta, a + i, rest * sizeof(E));
    if (!b_scalar) std::memcpy(tb, b + i, rest * sizeof(E));
    prod(ta, b_scalar ? b : tb, x);
    os.store4(x, ta);
    std::memcpy(out + i, ta, rest * sizeof(E));
  }
}

/// General ADD producer (any input stage parameters), k = 0.
template <class E, bool kScalarB>
struct GeneralAdd {
  using D = hn::ScalableTag<std::int32_t>;
  AddInputStage<D, true, true> in_a, in_b;
  __m512i sb;
  HWY_INLINE void operator()(const E* a, const E* b, __m512i* x) const {
    const D d;
    for (std::size_t g = 0; g < 4; ++g) {
      const hn::Vec<D> sa = in_a(d, hn::Vec<D>{Widen16(a + 16 * g)});
      if constexpr (kScalarB) x[g] = _mm512_add_epi32(sa.raw, sb);
      else x[g] = _mm512_add_epi32(sa.raw, in_b(d, hn::Vec<D>{Widen16(b + 16 * g)}).raw);
    }
  }
};

/// General MUL producer, k = 0.
template <class E, bool kScalarB>
struct GeneralMul {
  __m512i oa, ob, vb;
  HWY_INLINE void operator()(const E* a, const E* b, __m512i* x) const {
    for (std::size_t g = 0; g < 4; ++g) {
      const __m512i va = _mm512_add_epi32(Widen16(a + 16 * g), oa);
      const __m512i wb = kScalarB ? vb : _mm512_add_epi32(Widen16(b + 16 * g), ob);
      x[g] = _mm512_mullo_epi32(va, wb);
    }
  }
};

#if HWY_TARGET == HWY_AVX3_DL
/// The 64 bytes at p as unsigned values (signed ones + 128).
template <class E>
HWY_INLINE __m512i LoadU8(const E* p) {
  const __m512i v = _mm512_loadu_si512(p);
  if constexpr (std::is_signed_v<E>) return _mm512_xor_si512(v, _mm512_set1_epi8(static_cast<char>(0x80)));
  else return v;
}

/// Pair indices: lane i of group g takes byte 16 g + i of the first table (word 0) and of the
/// second (word 1); the other bytes are zeroed by the mask.
struct PairIndex {
  __m512i idx[4];
  PairIndex() {
    alignas(64) std::uint8_t t[64];
    for (std::size_t g = 0; g < 4; ++g) {
      for (std::size_t i = 0; i < 16; ++i) {
        t[4 * i] = static_cast<std::uint8_t>(16 * g + i);
        t[4 * i + 1] = 0;
        t[4 * i + 2] = static_cast<std::uint8_t>(64 + 16 * g + i);
        t[4 * i + 3] = 0;
      }
      idx[g] = _mm512_load_si512(t);
    }
  }
};
inline constexpr __mmask64 kPairMask = 0x5555555555555555ULL;

/// Linear producer: X = c + a * wa + b * wb (scalar b: b's word is a's, with wb = 0).
template <class E, bool kScalarB>
struct PairLinear {
  PairIndex pi;
  __m512i c, w;
  HWY_INLINE void operator()(const E* a, const E* b, __m512i* x) const {
    const __m512i va = LoadU8(a);
    const __m512i vb = kScalarB ? va : LoadU8(b);
    for (std::size_t g = 0; g < 4; ++g)
      x[g] = Dpwssd(c, _mm512_maskz_permutex2var_epi8(kPairMask, va, pi.idx[g], vb), w);
  }
};

/// MUL producer: X = c + a * ob + b * oa + a * b.
template <class E>
struct PairMul {
  PairIndex pi;
  __m512i c, w;
  HWY_INLINE void operator()(const E* a, const E* b, __m512i* x) const {
    const __m512i va = LoadU8(a), vb = LoadU8(b);
    for (std::size_t g = 0; g < 4; ++g) {
      const __m512i p = _mm512_maskz_permutex2var_epi8(kPairMask, va, pi.idx[g], vb);
      x[g] = Dpwssd(Dpwssd(c, p, w), p, _mm512_srli_epi32(p, 16));
    }
  }
};

/// The output stage for X in int16 (the linear ADD producer): with m = mh * 2^16 + ml
/// (ml in [-2^15, 2^15), mh in [2^14, 2^15) for m in [2^30, 2^31 - 2^15); both 0 for m = 0),
/// the sum of Out512, T = X * m + Bk - Nk [X * m < -2^(30-k)], is 2^16 H + L with
///   H = X * mh + Bk_hi - 2^(15-k) [X < 0],  L = X * ml + Bk_lo  (Bk = Bk_hi 2^16 + Bk_lo,
///   0 <= Bk_lo < 2^16), and r + offset = floor(T / 2^S) = floor((H + floor(L / 2^16)) / 2^(S-16)).
/// For m >= 2^30 and k >= 1, X * m * 2^k < -2^30 exactly when X < 0; for m = 0 the term does
/// not move the floor (T's other terms are in [2^(30+e-k) - 2^(30-k), 2^(31+e-k)) plus the
/// offset's multiple of 2^S). X's upper 16 bits are its sign (-1 or 0) when X fits int16, so
/// one vpdpwssd with the words (mh, 2^(15-k)) gives H, one with (ml, 0) gives L: five steps
/// per vector instead of Out512's twelve. make() checks that X fits int16 and that H + L / 2^16
/// cannot leave int32.
struct Out16 {
  __m512i w_hi, w_lo, b_hi, b_lo, lo, hi, order;
  __m512i sh;  // per-lane counts (see Out512)

  static bool make(const simd::Quant8AddParams& p, int k, std::int32_t x_min, std::int32_t x_max, Out16& o) {
    const std::int32_t m = p.out_multiplier, e = p.out_right;
    if (p.out_left != 0 || e < 1 || e > 22 || k < 1 || k > 15 || k >= e || p.out_offset <= -256 ||
        p.out_offset >= 256 || x_min < -32768 || x_max > 32767)
      return false;
    if (m != 0 && (m < (std::int32_t{1} << 30) || m >= std::numeric_limits<std::int32_t>::max() - 32767)) return false;
    const std::int32_t mh = (m + 32768) >> 16, ml = m - mh * 65536;
    const std::int64_t bk = ((std::int64_t{1} << 30) + (std::int64_t{1} << (30 + e)) +
                             static_cast<std::int64_t>(p.out_offset) * (std::int64_t{1} << (31 + e))) /
                            (std::int64_t{1} << k);
    const std::int64_t bk_hi = bk >> 16, bk_lo = bk - bk_hi * 65536;
    const std::int64_t x_abs = x_min < -x_max ? -std::int64_t{x_min} : std::int64_t{x_max};
    // |H| + |floor(L / 2^16)| with |L| < 2^30 + 2^16
    if (x_abs * mh + (bk_hi < 0 ? -bk_hi : bk_hi) + (std::int64_t{1} << (15 - k)) + (std::int64_t{1} << 15) >=
        (std::int64_t{1} << 31))
      return false;
    o.w_hi = _mm512_set1_epi32(static_cast<std::int32_t>(static_cast<std::uint32_t>(mh) | (std::uint32_t{1} << (31 - k))));
    o.w_lo = _mm512_set1_epi32(static_cast<std::int32_t>(static_cast<std::uint32_t>(ml) & 0xffffu));
    o.b_hi = _mm512_set1_epi32(static_cast<std::int32_t>(bk_hi));
    o.b_lo = _mm512_set1_epi32(static_cast<std::int32_t>(bk_lo));
    o.sh = _mm512_set1_epi32(15 + e - k);  // >= 16; a count past 31 fills with the sign: still the floor
    o.lo = _mm512_set1_epi8(static_cast<char>(p.min));
    o.hi = _mm512_set1_epi8(static_cast<char>(p.max));
    o.order = _mm512_set_epi32(15, 11, 7, 3, 14, 10, 6, 2, 13, 9, 5, 1, 12, 8, 4, 0);
    return true;
  }

  HWY_INLINE __m512i rescale(__m512i x) const {
    const __m512i h = Dpwssd(b_hi, x, w_hi);
    const __m512i l = Dpwssd(b_lo, x, w_lo);
    return _mm512_srav_epi32(_mm512_add_epi32(h, _mm512_srai_epi32(l, 16)), sh);
  }

  template <class E>
  HWY_INLINE void store4(const __m512i* x, E* p) const {
    Narrow4(rescale(x[0]), rescale(x[1]), rescale(x[2]), rescale(x[3]), lo, hi, order, p);
  }
};

/// Trailing zero bits of v (31 for 0).
HWY_INLINE int TrailingZeros(std::int32_t v) {
  int k = 0;
  while (k < 31 && ((v >> k) & 1) == 0) ++k;
  return k;
}

/// The exact linear form of one ADD input stage: h with rdbp(srdhm((v + off) << 20, m), r) =
/// (v + off) * h for every v, when there is one.
HWY_INLINE bool LinearInput(std::int32_t m, std::int32_t r, std::int32_t& h) {
  if ((m & 2047) != 0) return false;
  const std::int32_t mh = m >> 11;  // m = mh * 2^11
  if (r < 0 || r > 31) return false;
  if (r > 0 && (r >= 31 || (mh & ((std::int32_t{1} << r) - 1)) != 0)) return false;
  h = mh >> r;  // exact
  return true;
}

template <class E>
HWY_INLINE bool AddLinear(const E* a, const E* b, bool b_scalar, E* out, std::size_t n,
                          const simd::Quant8AddParams& p) {
  std::int32_t ha = 0, hb = 0;
  if (!LinearInput(p.a_multiplier, p.a_right, ha)) return false;
  std::int32_t sb = 0;
  if (b_scalar) {
    sb = RdbpScalar(SrdhmScalar((b[0] + p.b_offset) * (1 << 20), p.b_multiplier), p.b_right);
  } else if (!LinearInput(p.b_multiplier, p.b_right, hb)) {
    return false;
  }
  // the largest k <= e - 1 dividing h_a, h_b and s_b
  int k = p.out_right - 1;
  for (const std::int32_t v : {ha, hb, sb}) k = v == 0 ? k : (TrailingZeros(v) < k ? TrailingZeros(v) : k);
  if (k < 0) return false;
  const std::int32_t shift = std::is_signed_v<E> ? 128 : 0;  // the bytes are read as v + shift
  // X = c + a * wa + b * wb with x = X * 2^k; false when the weights do not fit int16
  std::int32_t c = 0, wpair = 0, x_min = 0, x_max = 0;
  const auto weights = [&](int kk) {
    const std::int32_t wa = ha / (std::int32_t{1} << kk), wb = b_scalar ? 0 : hb / (std::int32_t{1} << kk);
    if (wa < -32768 || wa > 32767 || wb < -32768 || wb > 32767) return false;
    c = (p.a_offset - shift) * wa + (b_scalar ? sb / (std::int32_t{1} << kk) : (p.b_offset - shift) * wb);
    wpair = static_cast<std::int32_t>(static_cast<std::uint32_t>(wa & 0xffff) | (static_cast<std::uint32_t>(wb) << 16));
    x_min = c + 255 * ((wa < 0 ? wa : 0) + (wb < 0 ? wb : 0));
    x_max = c + 255 * ((wa > 0 ? wa : 0) + (wb > 0 ? wb : 0));
    return true;
  };
  const auto run = [&](const auto& os) {
    if (b_scalar) {
      PairLinear<E, true> prod;
      prod.c = _mm512_set1_epi32(c), prod.w = _mm512_set1_epi32(wpair);
      Loop512(a, b, true, out, n, prod, os);
    } else {
      PairLinear<E, false> prod;
      prod.c = _mm512_set1_epi32(c), prod.w = _mm512_set1_epi32(wpair);
      Loop512(a, b, false, out, n, prod, os);
    }
  };
  const int k16 = k < 15 ? k : 15;
  Out16 o16;
  if (k16 >= 1 && weights(k16) && Out16::make(p, k16, x_min, x_max, o16)) {
    run(o16);
    return true;
  }
  Out512 os;
  if (!weights(k) || !Out512::make<E>(p.out_multiplier, p.out_left, p.out_right, p.out_offset, p.min, p.max, k, os))
    return false;
  run(os);
  return true;
}

/// One ADD input stage in 16-bit halves (AVX3_DL, the rounding producer): with v = the byte's
/// value + offset in [-255, 255] and m = mh * 2^16 + ml (ml in [-2^15, 2^15), mh int16), H = v * mh
/// and L = v * ml + 2^10 + 2^(10+r) [r >= 1] come from one vpdpwssd each, and
///   rdbp(srdhm(v * 2^20, m), r) = floor((v * m + 2^10 + 2^(10+r) - 2^11 c) / 2^(11+r))   (r >= 1)
///                               = (32 H + floor(L / 2^11) - c) >> r,
/// the one-rounding form above divided by 2^20, c = [v * m < 0] = [H < 0] (|m| >= 2^30 or m = 0);
/// r = 0 is srdhm alone: 32 H + floor((v * ml + 2^10) / 2^11). |32 H| < 2^28 and |L| < 2^24 + 2^30
/// (r <= 20) stay inside int32.
struct RoundedInput {
  std::int32_t w_hi = 0, w_lo = 0, c_hi = 0, c_lo = 0, r = 0;

  /// false when m or r are outside the form's preconditions; `word` 0 for a, 1 for b.
  static bool make(std::int32_t m, std::int32_t r, std::int32_t offset, int word, RoundedInput& o) {
    const std::int64_t m64 = m;
    if (r < 0 || r > 20 || (m != 0 && m64 > -(std::int64_t{1} << 30) && m64 < (std::int64_t{1} << 30))) return false;
    const std::int64_t mh = (m64 + 32768) >> 16, ml = m64 - mh * 65536;
    if (mh < -32768 || mh > 32767) return false;
    const int sh = 16 * word;
    o.w_hi = static_cast<std::int32_t>(static_cast<std::uint32_t>(mh & 0xffff) << sh);
    o.w_lo = static_cast<std::int32_t>(static_cast<std::uint32_t>(ml & 0xffff) << sh);
    o.c_hi = static_cast<std::int32_t>(offset * mh);
    o.c_lo = static_cast<std::int32_t>(offset * ml + 1024 + (r >= 1 ? (std::int64_t{1} << (10 + r)) : 0));
    o.r = r;
    return true;
  }
};

/// s for 16 lanes of pairs p (see RoundedInput); kRound: r >= 1.
template <bool kRound>
HWY_INLINE __m512i RoundedStage(__m512i p, __m512i w_hi, __m512i w_lo, __m512i c_hi, __m512i c_lo, __m512i r) {
  const __m512i h = Dpwssd(c_hi, p, w_hi);
  const __m512i l = Dpwssd(c_lo, p, w_lo);
  const __m512i y = _mm512_add_epi32(_mm512_slli_epi32(h, 5), _mm512_srai_epi32(l, 11));
  if constexpr (!kRound) return y;
  return _mm512_srav_epi32(_mm512_add_epi32(y, _mm512_srai_epi32(h, 31)), r);
}

/// The rounding ADD producer: X = s_a + s_b (k = 0), s_b a constant for a scalar b.
template <class E, bool kRoundA, bool kRoundB, bool kScalarB>
struct PairRounded {
  PairIndex pi;
  __m512i wha, wla, cha, cla, ra, whb, wlb, chb, clb, rb, sb;
  HWY_INLINE void operator()(const E* a, const E* b, __m512i* x) const {
    const __m512i va = LoadU8(a);
    const __m512i vb = kScalarB ? va : LoadU8(b);
    for (std::size_t g = 0; g < 4; ++g) {
      const __m512i p = _mm512_maskz_permutex2var_epi8(kPairMask, va, pi.idx[g], vb);
      const __m512i s_a = RoundedStage<kRoundA>(p, wha, wla, cha, cla, ra);
      x[g] = _mm512_add_epi32(s_a, kScalarB ? sb : RoundedStage<kRoundB>(p, whb, wlb, chb, clb, rb));
    }
  }
};

template <class E>
HWY_INLINE bool AddRounded(const E* a, const E* b, bool b_scalar, E* out, std::size_t n,
                           const simd::Quant8AddParams& p, const Out512& os) {
  const std::int32_t shift = std::is_signed_v<E> ? 128 : 0;  // the bytes are read as v + shift
  RoundedInput ia, ib;
  if (!RoundedInput::make(p.a_multiplier, p.a_right, p.a_offset - shift, 0, ia)) return false;
  if (!b_scalar && !RoundedInput::make(p.b_multiplier, p.b_right, p.b_offset - shift, 1, ib)) return false;
  const std::int32_t sb =
      b_scalar ? RdbpScalar(SrdhmScalar((b[0] + p.b_offset) * (1 << 20), p.b_multiplier), p.b_right) : 0;
  const auto run = [&](auto round_a, auto round_b, auto scalar_b) {
    PairRounded<E, decltype(round_a)::value, decltype(round_b)::value, decltype(scalar_b)::value> prod;
    prod.wha = _mm512_set1_epi32(ia.w_hi), prod.wla = _mm512_set1_epi32(ia.w_lo);
    prod.cha = _mm512_set1_epi32(ia.c_hi), prod.cla = _mm512_set1_epi32(ia.c_lo), prod.ra = _mm512_set1_epi32(ia.r);
    prod.whb = _mm512_set1_epi32(ib.w_hi), prod.wlb = _mm512_set1_epi32(ib.w_lo);
    prod.chb = _mm512_set1_epi32(ib.c_hi), prod.clb = _mm512_set1_epi32(ib.c_lo), prod.rb = _mm512_set1_epi32(ib.r);
    prod.sb = _mm512_set1_epi32(sb);
    Loop512(a, b, decltype(scalar_b)::value, out, n, prod, os);
  };
  if (b_scalar)
    WithFlags([&](auto ra) { run(ra, std::false_type{}, std::true_type{}); }, ia.r != 0);
  else
    WithFlags([&](auto ra, auto rb) { run(ra, rb, std::false_type{}); }, ia.r != 0, ib.r != 0);
  return true;
}
#endif  // HWY_TARGET == HWY_AVX3_DL

/// The AVX-512 forms of ADD; false when the output stage's preconditions do not hold.
template <class E>
HWY_INLINE bool Add512(const E* a, const E* b, bool b_scalar, E* out, std::size_t n, const simd::Quant8AddParams& p) {
#if HWY_TARGET == HWY_AVX3_DL
  if (AddLinear(a, b, b_scalar, out, n, p)) return true;
#endif
  Out512 os;
  if (!Out512::make<E>(p.out_multiplier, p.out_left, p.out_right, p.out_offset, p.min, p.max, 0, os)) return false;
#if HWY_TARGET == HWY_AVX3_DL
  if (AddRounded(a, b, b_scalar, out, n, p, os)) return true;
#endif
  using D = hn::ScalableTag<std::int32_t>;
  const D d;
  const AddInputStage<D, true, true> in_a(d, p.a_offset, p.a_multiplier, p.a_right);
  const AddInputStage<D, true, true> in_b(d, p.b_offset, p.b_multiplier, p.b_right);
  if (b_scalar) {
    const std::int32_t sb = RdbpScalar(SrdhmScalar((b[0] + p.b_offset) * (1 << 20), p.b_multiplier), p.b_right);
    Loop512(a, b, true, out, n, GeneralAdd<E, true>{in_a, in_b, _mm512_set1_epi32(sb)}, os);
  } else {
    Loop512(a, b, false, out, n, GeneralAdd<E, false>{in_a, in_b, _mm512_setzero_si512()}, os);
  }
  return true;
}

/// The AVX-512 forms of MUL; false when the output stage's preconditions do not hold.
template <class E>
HWY_INLINE bool Mul512(const E* a, const E* b, bool b_scalar, E* out, std::size_t n, const simd::Quant8MulParams& p) {
  Out512 os;
  if (!Out512::make<E>(p.out_multiplier, p.out_left, p.out_right, p.out_offset, p.min, p.max, 0, os)) return false;
#if HWY_TARGET == HWY_AVX3_DL
  const std::int32_t shift = std::is_signed_v<E> ? 128 : 0;  // the bytes are read as v + shift
  const std::int32_t oa = p.a_offset - shift;
  if (b_scalar) {
    // linear in a: (a + oa) * vb with vb = b[0] + b_offset in [-255, 255]
    const std::int32_t vb = b[0] + p.b_offset;
    PairLinear<E, true> prod;
    prod.c = _mm512_set1_epi32(oa * vb), prod.w = _mm512_set1_epi32(vb & 0xffff);
    Loop512(a, b, true, out, n, prod, os);
    return true;
  }
  const std::int32_t ob = p.b_offset - shift;
  PairMul<E> prod;
  prod.c = _mm512_set1_epi32(oa * ob);
  prod.w = _mm512_set1_epi32(static_cast<std::int32_t>(static_cast<std::uint32_t>(ob & 0xffff) |
                                                       (static_cast<std::uint32_t>(oa & 0xffff) << 16)));
  Loop512(a, b, false, out, n, prod, os);
#else
  const __m512i oa = _mm512_set1_epi32(p.a_offset), ob = _mm512_set1_epi32(p.b_offset);
  if (b_scalar)
    Loop512(a, b, true, out, n, GeneralMul<E, true>{oa, ob, _mm512_set1_epi32(b[0] + p.b_offset)}, os);
  else
    Loop512(a, b, false, out, n, GeneralMul<E, false>{oa, ob, _mm512_setzero_si512()}, os);
#endif
  return true;
}
#endif  // HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3

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
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  if (Add512(a, b, b_scalar, out, n, p)) return;
#endif
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
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  if (Mul512(a, b, b_scalar, out, n, p)) return;
#endif
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

template <int = 0>
inline void Quant8AddU8(const std::uint8_t* a, const std::uint8_t* b, bool b_scalar, std::uint8_t* out, std::size_t n,
                        const simd::Quant8AddParams& p) {
  quant8_binary_detail::Add8(a, b, b_scalar, out, n, p);
}
template <int = 0>
inline void Quant8AddI8(const std::int8_t* a, const std::int8_t* b, bool b_scalar, std::int8_t* out, std::size_t n,
                        const simd::Quant8AddParams& p) {
  quant8_binary_detail::Add8(a, b, b_scalar, out, n, p);
}
template <int = 0>
inline void Quant8MulU8(const std::uint8_t* a, const std::uint8_t* b, bool b_scalar, std::uint8_t* out, std::size_t n,
                        const simd::Quant8MulParams& p) {
  quant8_binary_detail::Mul8(a, b, b_scalar, out, n, p);
}
template <int = 0>
inline void Quant8MulI8(const std::int8_t* a, const std::int8_t* b, bool b_scalar, std::int8_t* out, std::size_t n,
                        const simd::Quant8MulParams& p) {
  quant8_binary_detail::Mul8(a, b, b_scalar, out, n, p);
}

template <int = 0>
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
/// (Entry points and table are templates so that a program instantiates them, and the 8-bit
/// loops above, only when it uses the family: a set with ADD's FLOAT32 kernel alone includes
/// this header but compiles none of it.)
template <int I = 0>
inline constexpr simd::Quant8Binary kQuant8Binary{&Quant8AddU8<I>, &Quant8AddI8<I>, &Quant8MulU8<I>, &Quant8MulI8<I>,
                                                  &Quant8Requant<I>};

}  // namespace nnhal::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
