// Per-target body of nnhal's 8-bit DEPTHWISE_CONV_2D kernel (NHWC, depth multiplier 1):
// compiled once per Highway target by nnhal/simd/depthwise_q8.hpp (through
// nnhal/simd/foreach_target-inl.h), which declares simd::DepthwiseQ8 first. Not a header to
// include on its own; it has no include guard on purpose.
//
// Channels are contiguous in NHWC, so N channels (N = int32 lanes) are N independent lanes:
// the 8-bit inputs and filter values are widened to int32, the sums formed with 32-bit
// multiplies and adds (wrapping, as the reference's int32 sums do on real hardware), and the
// rescaling done per lane with the reference's integer steps:
//  - SaturatingRoundingDoublingHighMul(a, m) = floor((a * m + 2^30) / 2^31) for both signs
//    (the reference's nudge 2^30 / 1 - 2^30 and truncating division give the same value; the
//    saturating case a = m = INT32_MIN cannot occur, m != INT32_MIN). The 64-bit products come
//    from MulEven on the even lanes and on the odd lanes shifted down; bits 31..62 are kept.
//  - RoundingDivideByPOT(x, e) = (x >> e) + ((x & mask) > (mask >> 1) + (x < 0)), per-lane e.
//  - the left shift wraps like the reference's shift of a uint32.
// So results are the reference's bit for bit (tests/simd/depthwise_q8.cpp compares them).
//
// Paths: a generic one per output pixel over the taps inside the input (any filter, stride,
// dilation, and the border pixels); and, for 3x3 filters with dilation 1 and stride 1 or 2,
// a row routine for the pixels whose whole window is inside the input. It keeps the 9 widened
// filter vectors of a channel block in registers and folds the input offset into the bias
// (sum (x + xo) * w' = sum x * w' + xo * sum w', exact modulo 2^32 like the sum itself), so a
// tap costs one multiply and one add, and each input column the windows of U neighbouring
// outputs share is loaded and widened once (U = 8 with 32 vector registers, 4 with 16; the U
// sums are independent dependency chains). Channels past the last full vector are
// done by a scalar loop with the same integer steps.
//
// On AVX-512 targets the 3x3 rows take row3x3_pairs instead (tap pairs with vpmaddwd, or
// vpdpwssd where the compiler targets AVX512-VNNI; pair vectors by one byte permutation on
// AVX3_DL; the rescale as one 64-bit rounding: see the comment above Requant64), for groups of
// 8 outputs with the last group moved back to end at the row's end. Whole output rows, borders
// included, read three padded copies of their input rows (padded_row: the input zero point
// outside the input) kept in a ring, so no output takes the per-pixel path; when the copies do
// not fit, the interior reads the input in place and the borders take pixel().
//
// On AVX2 (16 vector registers, no AVX-512) the 3x3 runs with dilation 1, stride 1 or 2, at
// least 4 outputs a row, and a rescale with no left shift, right shifts in [1, 31] and
// multipliers >= 0 (the usual 8-bit layer) take run_avx2 (see the comment above Avx2Block):
// whole output rows, borders included, in groups of 8 (stride 1) or 4 (stride 2) outputs from
// three padded input rows kept in a ring, 8-channel blocks, 5 tap pairs per output with vpmaddwd,
// each pair vector one byte shuffle of two broadcast loads built once per group, and a
// one-rounding rescale with 64-bit logical shifts, exact because the sum is first made
// non-negative (the accumulator carries + 2^31 and a per-channel constant keeps the 64-bit value
// in [0, 2^64)); four outputs narrowed together. Other runs take the generic paths above.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace nnhal::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

namespace dwq_detail {

using D32 = hn::ScalableTag<std::int32_t>;

#if (HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3) || HWY_ARCH_ARM_A64 || HWY_ARCH_RVV
inline constexpr std::size_t kPixelsPerStep = 8;  // with 32 vector registers
#else
inline constexpr std::size_t kPixelsPerStep = 4;
#endif

// ---- scalar steps (the channel tail) ------------------------------------------------------

HWY_INLINE std::int32_t srdhm(std::int32_t a, std::int32_t m) {
  const std::int64_t ab = static_cast<std::int64_t>(a) * m;
  const std::int64_t nudge = ab >= 0 ? (std::int64_t{1} << 30) : (1 - (std::int64_t{1} << 30));
  return static_cast<std::int32_t>((ab + nudge) / (std::int64_t{1} << 31));
}

HWY_INLINE std::int32_t rdbp(std::int32_t x, std::int32_t e) {
  const auto mask = static_cast<std::int32_t>((std::int64_t{1} << e) - 1);
  const std::int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> e) + ((x & mask) > threshold ? 1 : 0);
}

HWY_INLINE std::int32_t finish_scalar(std::uint32_t acc, const simd::DepthwiseQ8Args& a, std::size_t c) {
  const auto shifted = static_cast<std::int32_t>(acc << a.left_shift[c]);
  std::int32_t r = rdbp(srdhm(shifted, a.multiplier[c]), a.right_shift[c]) + a.output_offset;
  return r < a.act_min ? a.act_min : (r > a.act_max ? a.act_max : r);
}

// ---- vector steps --------------------------------------------------------------------------

/// srdhm per int32 lane with a per-lane multiplier.
/// m_odd: m with its odd lanes moved down into the even ones (a per-block constant).
template <class V>
HWY_INLINE V Srdhm(V x, V m, V m_odd) {
  const D32 d;
#if HWY_TARGET == HWY_SCALAR
  // One lane, no 64-bit lanes to widen into: the scalar step.
  (void)m_odd;
  return hn::Set(d, srdhm(hn::GetLane(x), hn::GetLane(m)));
#else
  const hn::Repartition<std::int64_t, D32> d64;
  const hn::Repartition<std::uint64_t, D32> du64;
  const auto nudge = hn::Set(d64, std::int64_t{1} << 30);
  const auto even = hn::Add(hn::MulEven(x, m), nudge);
  const V x_odd = hn::BitCast(d, hn::ShiftRight<32>(hn::BitCast(du64, x)));
  const auto odd = hn::Add(hn::MulEven(x_odd, m_odd), nudge);
  const auto lo = hn::ShiftRight<31>(hn::BitCast(du64, even));
  const auto hi = hn::ShiftLeft<1>(hn::BitCast(du64, odd));
  return hn::OddEven(hn::BitCast(d, hi), hn::BitCast(d, lo));
#endif
}

/// The rescaling constants of one channel block.
struct Requant {
  hn::Vec<D32> m, m_odd, left, right, mask, half, offset, lo, hi;
};

HWY_INLINE Requant requant_at(const simd::DepthwiseQ8Args& a, std::size_t c) {
  const D32 d;
  const auto one = hn::Set(d, 1);
  Requant q;
  q.m = hn::LoadU(d, a.multiplier + c);
#if HWY_TARGET == HWY_SCALAR
  q.m_odd = q.m;
#else
  const hn::Repartition<std::uint64_t, D32> du64;
  q.m_odd = hn::BitCast(d, hn::ShiftRight<32>(hn::BitCast(du64, q.m)));
#endif
  q.left = hn::LoadU(d, a.left_shift + c);
  q.right = hn::LoadU(d, a.right_shift + c);
  q.mask = hn::Sub(one << q.right, one);
  q.half = hn::ShiftRight<1>(q.mask);
  q.offset = hn::Set(d, a.output_offset);
  q.lo = hn::Set(d, a.act_min);
  q.hi = hn::Set(d, a.act_max);
  return q;
}

/// rescale (left shift, srdhm, rounding right shift), + output offset, clamp.
HWY_INLINE hn::Vec<D32> finish(hn::Vec<D32> acc, const Requant& q) {
  const D32 d;
  const auto r = Srdhm(acc << q.left, q.m, q.m_odd);
  const auto threshold = hn::Sub(q.half, hn::ShiftRight<31>(r));  // + 1 where r < 0
  const auto up = hn::VecFromMask(d, hn::Gt(hn::And(r, q.mask), threshold));  // -1 where rounding up
  const auto v = hn::Add(hn::Sub(r >> q.right, up), q.offset);
  return hn::Min(hn::Max(v, q.lo), q.hi);
}

/// N 8-bit values widened to int32.
template <class T>
HWY_INLINE hn::Vec<D32> load_wide(const T* p) {
  const D32 d;
  const hn::Rebind<T, D32> d8;
  return hn::PromoteTo(d, hn::LoadU(d8, p));
}

/// Stores N int32 lanes already clamped to E's range as E (so truncation is exact).
template <class E>
HWY_INLINE void store_narrow(hn::Vec<D32> v, E* p) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  // One vpmovdb; Highway 1.0's DemoteTo / TruncateTo for 512-bit vectors take 3-4 shuffles.
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm512_cvtepi32_epi8(v.raw));
#else
  const hn::Rebind<E, D32> d8;
  hn::StoreU(hn::DemoteTo(d8, v), d8, p);
#endif
}

/// Taps k in [lo, hi) of one axis with 0 <= origin + k * dilation < size.
HWY_INLINE void tap_range(std::int64_t origin, std::int64_t dilation, std::size_t filter, std::size_t size,
                          std::size_t& lo, std::size_t& hi) {
  const auto n = static_cast<std::int64_t>(size), f = static_cast<std::int64_t>(filter);
  std::int64_t l = origin < 0 ? (-origin + dilation - 1) / dilation : 0;
  std::int64_t h = n - 1 - origin < 0 ? 0 : (n - 1 - origin) / dilation + 1;
  if (h > f) h = f;
  if (l > h) l = h;
  lo = static_cast<std::size_t>(l), hi = static_cast<std::size_t>(h);
}

/// One output pixel, every channel, taps inside the input only.
template <class E, class F>
HWY_INLINE void pixel(const simd::DepthwiseQ8Args& a, const E* in_b, std::size_t oy, std::size_t ox, E* o) {
  const D32 d;
  const std::size_t N = hn::Lanes(d), C = a.channels;
  const E* in = in_b;
  const auto* filter = static_cast<const F*>(a.filter);
  const std::int64_t iy0 = static_cast<std::int64_t>(oy) * a.stride_h - a.pad_top;
  const std::int64_t ix0 = static_cast<std::int64_t>(ox) * a.stride_w - a.pad_left;
  std::size_t ky0, ky1, kx0, kx1;
  tap_range(iy0, a.dilation_h, a.filter_h, a.in_h, ky0, ky1);
  tap_range(ix0, a.dilation_w, a.filter_w, a.in_w, kx0, kx1);
  const auto xo = hn::Set(d, a.input_offset), wo = hn::Set(d, a.filter_offset);
  std::size_t c = 0;
  // Two channel vectors at a time: two independent multiply-add chains.
  for (; c + 2 * N <= C; c += 2 * N) {
    auto acc0 = hn::LoadU(d, a.bias + c), acc1 = hn::LoadU(d, a.bias + c + N);
    for (std::size_t ky = ky0; ky < ky1; ++ky) {
      const auto iy = static_cast<std::size_t>(iy0 + static_cast<std::int64_t>(ky) * a.dilation_h);
      for (std::size_t kx = kx0; kx < kx1; ++kx) {
        const auto ix = static_cast<std::size_t>(ix0 + static_cast<std::int64_t>(kx) * a.dilation_w);
        const E* xp = in + (iy * a.in_w + ix) * C + c;
        const F* wp = filter + (ky * a.filter_w + kx) * C + c;
        acc0 = hn::Add(acc0, hn::Mul(hn::Add(load_wide(xp), xo), hn::Add(load_wide(wp), wo)));
        acc1 = hn::Add(acc1, hn::Mul(hn::Add(load_wide(xp + N), xo), hn::Add(load_wide(wp + N), wo)));
      }
    }
    store_narrow(finish(acc0, requant_at(a, c)), o + c);
    store_narrow(finish(acc1, requant_at(a, c + N)), o + c + N);
  }
  for (; c + N <= C; c += N) {
    auto acc = hn::LoadU(d, a.bias + c);
    for (std::size_t ky = ky0; ky < ky1; ++ky) {
      const auto iy = static_cast<std::size_t>(iy0 + static_cast<std::int64_t>(ky) * a.dilation_h);
      for (std::size_t kx = kx0; kx < kx1; ++kx) {
        const auto ix = static_cast<std::size_t>(ix0 + static_cast<std::int64_t>(kx) * a.dilation_w);
        const auto x = hn::Add(load_wide(in + (iy * a.in_w + ix) * C + c), xo);
        const auto w = hn::Add(load_wide(filter + (ky * a.filter_w + kx) * C + c), wo);
        acc = hn::Add(acc, hn::Mul(x, w));
      }
    }
    store_narrow(finish(acc, requant_at(a, c)), o + c);
  }
  for (; c < C; ++c) {
    std::uint32_t acc = static_cast<std::uint32_t>(a.bias[c]);
    for (std::size_t ky = ky0; ky < ky1; ++ky) {
      const auto iy = static_cast<std::size_t>(iy0 + static_cast<std::int64_t>(ky) * a.dilation_h);
      for (std::size_t kx = kx0; kx < kx1; ++kx) {
        const auto ix = static_cast<std::size_t>(ix0 + static_cast<std::int64_t>(kx) * a.dilation_w);
        const std::int32_t x = in[(iy * a.in_w + ix) * C + c] + a.input_offset;
        const std::int32_t w = filter[(ky * a.filter_w + kx) * C + c] + a.filter_offset;
        acc += static_cast<std::uint32_t>(x * w);
      }
    }
    o[c] = static_cast<E>(finish_scalar(acc, a, c));
  }
}

#if !HWY_HAVE_SCALABLE
/// Output pixels [x_begin, x_end) of one row whose 3x3 window (dilation 1, stride S) lies
/// inside the input; r0 points at the first of the three input rows.
template <std::size_t S, class E, class F>
HWY_NOINLINE void row3x3(const simd::DepthwiseQ8Args& a, const E* r0, E* orow, std::size_t x_begin, std::size_t x_end) {
  using V = hn::Vec<D32>;
  constexpr std::size_t U = kPixelsPerStep;
  const D32 d;
  const std::size_t N = hn::Lanes(d), C = a.channels;
  const std::size_t row_stride = a.in_w * C;
  const auto* filter = static_cast<const F*>(a.filter);
  const std::size_t full = C - C % N;
  const V xo = hn::Set(d, a.input_offset), wo = hn::Set(d, a.filter_offset);
  for (std::size_t c = 0; c < full; c += N) {
    V w[9];
    V wsum = hn::Zero(d);
#pragma GCC unroll 9
    for (std::size_t k = 0; k < 9; ++k) {
      w[k] = hn::Add(load_wide(filter + k * C + c), wo);
      wsum = hn::Add(wsum, w[k]);
    }
    const V b = hn::Add(hn::LoadU(d, a.bias + c), hn::Mul(xo, wsum));
    const Requant q = requant_at(a, c);
    std::size_t x = x_begin;
    for (; x + U <= x_end; x += U) {
      const E* base = r0 + (x * S - static_cast<std::size_t>(a.pad_left)) * C + c;
      V acc[U];
#pragma GCC unroll 8
      for (std::size_t u = 0; u < U; ++u) acc[u] = b;
      // Each input column of the U windows is widened once and used by every output whose
      // window holds it (output u reads columns u * S + kx).
#pragma GCC unroll 3
      for (std::size_t ky = 0; ky < 3; ++ky) {
        const E* row = base + ky * row_stride;
#pragma GCC unroll 24
        for (std::size_t j = 0; j < (U - 1) * S + 3; ++j) {
          const V v = load_wide(row + j * C);
#pragma GCC unroll 3
          for (std::size_t kx = 0; kx < 3; ++kx) {
            if (j >= kx && (j - kx) % S == 0 && (j - kx) / S < U)
              acc[(j - kx) / S] = hn::Add(acc[(j - kx) / S], hn::Mul(v, w[ky * 3 + kx]));
          }
        }
      }
#pragma GCC unroll 8
      for (std::size_t u = 0; u < U; ++u) store_narrow(finish(acc[u], q), orow + (x + u) * C + c);
    }
    for (; x < x_end; ++x) {
      const E* base = r0 + (x * S - static_cast<std::size_t>(a.pad_left)) * C + c;
      V acc = b;
#pragma GCC unroll 3
      for (std::size_t ky = 0; ky < 3; ++ky)
#pragma GCC unroll 3
        for (std::size_t kx = 0; kx < 3; ++kx)
          acc = hn::Add(acc, hn::Mul(load_wide(base + ky * row_stride + kx * C), w[ky * 3 + kx]));
      store_narrow(finish(acc, q), orow + x * C + c);
    }
  }
  // Channels past the last full vector (none when C is a multiple of N: skip the loop over
  // the pixels, whose bookkeeping alone is not free).
  if (full < C)
  for (std::size_t x = x_begin; x < x_end; ++x) {
    const E* base = r0 + (x * S - static_cast<std::size_t>(a.pad_left)) * C;
    for (std::size_t c = full; c < C; ++c) {
      std::uint32_t acc = static_cast<std::uint32_t>(a.bias[c]);
      for (std::size_t ky = 0; ky < 3; ++ky)
        for (std::size_t kx = 0; kx < 3; ++kx) {
          const std::int32_t xv = base[ky * row_stride + kx * C + c] + a.input_offset;
          const std::int32_t wv = filter[(ky * 3 + kx) * C + c] + a.filter_offset;
          acc += static_cast<std::uint32_t>(xv * wv);
        }
      orow[x * C + c] = static_cast<E>(finish_scalar(acc, a, c));
    }
  }
}
#endif

#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
// ---- AVX-512: 16-bit tap pairs and a one-rounding rescale ---------------------------------
//
// Tap pairs: an int32 lane holding two int16 values (lo, hi) times a lane of two int16 filter
// values gives lo * w_lo + hi * w_hi in one vpmaddwd (one vpdpwssd, accumulate included, with
// AVX512-VNNI). Raw 8-bit inputs and filter values minus the filter zero point (in [-255, 255])
// fit int16, and a pair's sum fits int32, so each lane is exactly the two products' sum; the
// accumulation wraps modulo 2^32 like the reference's sums. The input offset is folded into the
// bias as in row3x3. The 9 taps of a 3x3 window make 5 pairs per output: (row 0, row 1) of each
// of the 3 columns, (row 2 column u, row 2 column u + 1) and (row 2 column u + 1, column u + 2)
// with the weights (0, w[2][2]), so every pair vector is built once per input column and used
// by every output whose window holds it.
//
// Rescale: with P = (acc << left) * m + 2^30 (64-bit, |P| < 2^62 + 2^30), the reference's
// SaturatingRoundingDoublingHighMul is s = floor(P / 2^31) (see the file comment), and its
// RoundingDivideByPOT(s, e) for e >= 1 is floor((s + 2^(e-1) - [s < 0]) / 2^e) (half away from
// zero; e = 0 leaves s). Since floor(floor(y) / n + k / n) = floor((y + k) / n) for integers
// n > 0, k, both steps are one floor: floor((P + 2^(30+e) - 2^31 [P < 0]) / 2^(31+e)), with
// [s < 0] = [P < 0]. The sum stays below 2^63 for e <= 31 (quantize_multiplier's range; a
// block with a larger shift takes finish()). So the result is the reference's bit for bit with
// one 64-bit arithmetic shift per half instead of the two rounding steps.

/// Per-block constants of the one-rounding rescale (64-bit lanes: even / odd channels).
struct Requant64 {
  __m512i m, m_odd, add_even, add_odd, neg_even, neg_odd, sh_even, sh_odd, left, offset, lo, hi;
  bool any_left = false;
  bool ok = true;       ///< every right shift <= 31
  bool folded = false;  ///< the output offset is in add_even / add_odd (every right shift <= 22)
  bool clamp_lo = true, clamp_hi = true;  ///< whether act_min / act_max are inside E's range
};

template <class E>
HWY_INLINE Requant64 requant64_at(const simd::DepthwiseQ8Args& a, std::size_t c) {
  Requant64 q;
  alignas(64) std::int64_t add[16], neg[16], sh[16];
  std::int32_t any = 0, max_e = 0;
  for (std::size_t i = 0; i < 16; ++i) {
    const std::int32_t e = a.right_shift[c + i];
    any |= a.left_shift[c + i];
    if (e < 0 || e > 31) q.ok = false;
    max_e = e > max_e ? e : max_e;
  }
  // The output offset (|offset| < 2^8 for the 8-bit types) times 2^(31 + e) added to P moves
  // the floor by exactly the offset; with e <= 22 the sum stays below 2^62 + 2^61 + 2^61.
  q.folded = q.ok && max_e <= 22 && a.output_offset > -256 && a.output_offset < 256;
  for (std::size_t i = 0; i < 16; ++i) {
    const std::int32_t e = a.right_shift[c + i];
    const std::int32_t ec = e < 0 ? 0 : (e > 31 ? 31 : e);
    // even channels go to lanes 0..7 of the first half, odd ones to the second
    const std::size_t k = (i % 2) * 8 + i / 2;
    add[k] = (std::int64_t{1} << 30) + (ec > 0 ? (std::int64_t{1} << (30 + ec)) : 0);
    if (q.folded) add[k] += static_cast<std::int64_t>(a.output_offset) * (std::int64_t{1} << (31 + ec));
    neg[k] = ec > 0 ? (std::int64_t{1} << 31) : 0;
    sh[k] = 31 + ec;
  }
  q.clamp_lo = a.act_min > static_cast<std::int32_t>(std::numeric_limits<E>::min());
  q.clamp_hi = a.act_max < static_cast<std::int32_t>(std::numeric_limits<E>::max());
  q.any_left = any != 0;
  q.m = _mm512_loadu_si512(a.multiplier + c);
  q.m_odd = _mm512_srli_epi64(q.m, 32);
  q.add_even = _mm512_load_si512(add), q.add_odd = _mm512_load_si512(add + 8);
  q.neg_even = _mm512_load_si512(neg), q.neg_odd = _mm512_load_si512(neg + 8);
  q.sh_even = _mm512_load_si512(sh), q.sh_odd = _mm512_load_si512(sh + 8);
  q.left = _mm512_loadu_si512(a.left_shift + c);
  q.offset = _mm512_set1_epi32(a.output_offset);
  q.lo = _mm512_set1_epi32(a.act_min);
  q.hi = _mm512_set1_epi32(a.act_max);
  return q;
}

/// finish() with the one-rounding rescale, narrowed to E and stored: the clamps to the
/// activation range are done where it is inside E's range, the rest by saturating narrowing.
template <class E>
HWY_INLINE void finish64_store(__m512i acc, const Requant64& q, E* p) {
  const __m512i x = q.any_left ? _mm512_sllv_epi32(acc, q.left) : acc;
  const __m512i limit = _mm512_set1_epi64(-(std::int64_t{1} << 30));
  const __m512i pe = _mm512_mul_epi32(x, q.m);
  const __m512i po = _mm512_mul_epi32(_mm512_srli_epi64(x, 32), q.m_odd);
  __m512i te = _mm512_add_epi64(pe, q.add_even);
  __m512i to = _mm512_add_epi64(po, q.add_odd);
  te = _mm512_mask_sub_epi64(te, _mm512_cmplt_epi64_mask(pe, limit), te, q.neg_even);
  to = _mm512_mask_sub_epi64(to, _mm512_cmplt_epi64_mask(po, limit), to, q.neg_odd);
  te = _mm512_srav_epi64(te, q.sh_even);
  to = _mm512_srav_epi64(to, q.sh_odd);
  const __m512i idx = _mm512_set_epi32(30, 14, 28, 12, 26, 10, 24, 8, 22, 6, 20, 4, 18, 2, 16, 0);
  __m512i r = _mm512_permutex2var_epi32(te, idx, to);
  if (!q.folded) r = _mm512_add_epi32(r, q.offset);
  if constexpr (std::is_signed_v<E>) {
    if (q.clamp_lo) r = _mm512_max_epi32(r, q.lo);
    if (q.clamp_hi) r = _mm512_min_epi32(r, q.hi);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm512_cvtsepi32_epi8(r));
  } else {
    r = _mm512_max_epi32(r, q.lo);  // act_min >= 0: what remains is unsigned saturation
    if (q.clamp_hi) r = _mm512_min_epi32(r, q.hi);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm512_cvtusepi32_epi8(r));
  }
}

/// int32 lanes of (lo's low 16 bits, hi's low 16 bits).
HWY_INLINE __m512i pair16(__m512i lo, __m512i hi) {
  return _mm512_mask_blend_epi16(0xAAAAAAAAu, lo, _mm512_slli_epi32(hi, 16));
}

#if HWY_TARGET == HWY_AVX3_DL
// With AVX512-VBMI a pair vector is one byte permutation of two 16-byte loads: byte 4c of the
// result is lo[c], byte 4c + 2 is hi[c], the other bytes are zeroed, so each int32 lane holds
// the two values zero-extended to int16. Signed inputs are flipped to unsigned (x ^ 0x80 =
// x + 128), and the caller subtracts 128 * sum(w') from the bias.
HWY_INLINE __m512i pair_index() {
  alignas(64) std::uint8_t idx[64];
  for (std::size_t c = 0; c < 16; ++c) {
    idx[4 * c] = static_cast<std::uint8_t>(c);
    idx[4 * c + 1] = 0;
    idx[4 * c + 2] = static_cast<std::uint8_t>(64 + c);
    idx[4 * c + 3] = 0;
  }
  return _mm512_load_si512(idx);
}

template <class E>
HWY_INLINE __m512i pair_bytes(const E* lo, const E* hi, __m512i idx) {
  const __m512i a = _mm512_castsi128_si512(_mm_loadu_si128(reinterpret_cast<const __m128i*>(lo)));
  const __m512i b = _mm512_castsi128_si512(_mm_loadu_si128(reinterpret_cast<const __m128i*>(hi)));
  const __m512i p = _mm512_maskz_permutex2var_epi8(0x5555555555555555ull, a, idx, b);
  if constexpr (std::is_signed_v<E>) return _mm512_xor_si512(p, _mm512_set1_epi16(0x80));
  return p;
}
#endif

/// The constants of one 16-channel block of the tap-pair routine: the pair filter vectors,
/// the bias with the input offset folded in, and both rescales.
struct PairBlock {
  __m512i wq0, wq1, wq2, wr0, wr1, bias;
  Requant64 q64;
  Requant q;
};

template <class E, class F>
HWY_INLINE PairBlock pair_block_at(const simd::DepthwiseQ8Args& a, std::size_t c) {
  const std::size_t C = a.channels;
  const auto* filter = static_cast<const F*>(a.filter);
  const __m512i xo = _mm512_set1_epi32(a.input_offset), wo = _mm512_set1_epi32(a.filter_offset);
  __m512i w[9];
  __m512i wsum = _mm512_setzero_si512();
  for (std::size_t k = 0; k < 9; ++k) {
    w[k] = _mm512_add_epi32(load_wide(filter + k * C + c).raw, wo);
    wsum = _mm512_add_epi32(wsum, w[k]);
  }
  PairBlock pb;
  pb.wq0 = pair16(w[0], w[3]), pb.wq1 = pair16(w[1], w[4]), pb.wq2 = pair16(w[2], w[5]);
  pb.wr0 = pair16(w[6], w[7]), pb.wr1 = pair16(_mm512_setzero_si512(), w[8]);
#if HWY_TARGET == HWY_AVX3_DL
  // inputs are read as x + 128 when signed (pair_bytes)
  const __m512i xo_eff = std::is_signed_v<E> ? _mm512_sub_epi32(xo, _mm512_set1_epi32(128)) : xo;
#else
  const __m512i xo_eff = xo;
#endif
  pb.bias = _mm512_add_epi32(_mm512_loadu_si512(a.bias + c), _mm512_mullo_epi32(xo_eff, wsum));
  pb.q64 = requant64_at<E>(a, c);
  pb.q = requant_at(a, c);
  return pb;
}

/// row3x3 for the groups of U outputs and full 16-channel blocks, with tap pairs; returns the
/// first output column it did not compute (the caller finishes [that, x_end) with row3x3).
/// Channels past the last full block are computed here for [x_begin, returned column).
/// rows[k] holds input columns from `origin` on (0 for the input's own rows; the first column
/// of an edge copy, see edges3x3_pairs). `blocks`, when not null, holds every full block's
/// constants (pair_block_at, computed once per run); otherwise each call computes them.
template <std::size_t S, class E, class F>
HWY_NOINLINE std::size_t row3x3_pairs(const simd::DepthwiseQ8Args& a, const PairBlock* blocks, const E* const* rows,
                                      E* orow, std::size_t x_begin, std::size_t x_end, std::int64_t origin = 0) {
  constexpr std::size_t U = 8, N = 16;
  const std::size_t C = a.channels;
  const auto* filter = static_cast<const F*>(a.filter);
  const std::size_t full = C - C % N;
  if (x_end - x_begin < U) return x_begin;
  // The last group is moved back to end at x_end (recomputing a few outputs with the same
  // values) instead of leaving a tail of single outputs.
  const std::size_t groups_end = x_end;
#if HWY_TARGET == HWY_AVX3_DL
  const __m512i idx = pair_index();
#endif
  for (std::size_t c = 0; c < full; c += N) {
    PairBlock local;
    if (blocks == nullptr) local = pair_block_at<E, F>(a, c);
    const PairBlock& pb = blocks != nullptr ? blocks[c / N] : local;
    const __m512i wq0 = pb.wq0, wq1 = pb.wq1, wq2 = pb.wq2, wr0 = pb.wr0, wr1 = pb.wr1, b = pb.bias;
    // Copies, not references: the 8-bit stores below may alias any memory, so constants read
    // through a reference would be reloaded after every store.
    const Requant64 q64 = pb.q64;
    const Requant q = pb.q;
    for (std::size_t x0 = x_begin; x0 < x_end; x0 += U) {
      const std::size_t x = x0 + U <= x_end ? x0 : x_end - U;
      const std::size_t off =
          static_cast<std::size_t>(static_cast<std::int64_t>(x * S) - a.pad_left - origin) * C + c;
      __m512i acc[U];
#pragma GCC unroll 8
      for (std::size_t u = 0; u < U; ++u) acc[u] = b;
#if HWY_TARGET != HWY_AVX3_DL
      __m512i prev2 = _mm512_setzero_si512();
#endif
      const E *col0 = rows[0] + off, *col1 = rows[1] + off, *col2 = rows[2] + off;
#pragma GCC unroll 24
      for (std::size_t j = 0; j < (U - 1) * S + 3; ++j, col0 += C, col1 += C, col2 += C) {
#if HWY_TARGET == HWY_AVX3_DL
        const __m512i qv = pair_bytes(col0, col1, idx);
#else
        const __m512i qv = pair16(load_wide(col0).raw, load_wide(col1).raw);
        const __m512i x2 = load_wide(col2).raw;
#endif
#pragma GCC unroll 3
        for (std::size_t kx = 0; kx < 3; ++kx) {
          if (j >= kx && (j - kx) % S == 0 && (j - kx) / S < U) {
            const __m512i wk = kx == 0 ? wq0 : (kx == 1 ? wq1 : wq2);
            acc[(j - kx) / S] = Dpwssd(acc[(j - kx) / S], qv, wk);
          }
        }
        if (j >= 1) {
          // R_i = (row 2 column i, column i + 1), i = j - 1: output u with i = u S takes it
          // with (w20, w21), output u with i = u S + 1 with (0, w22).
          const std::size_t i = j - 1;
#if HWY_TARGET == HWY_AVX3_DL
          const __m512i rv = pair_bytes(col2 - C, col2, idx);
#else
          const __m512i rv = pair16(prev2, x2);
#endif
          if (i % S == 0 && i / S < U) acc[i / S] = Dpwssd(acc[i / S], rv, wr0);
          if (i >= 1 && (i - 1) % S == 0 && (i - 1) / S < U) acc[(i - 1) / S] = Dpwssd(acc[(i - 1) / S], rv, wr1);
        }
#if HWY_TARGET != HWY_AVX3_DL
        prev2 = x2;
#endif
      }
      if (q64.ok) {
#pragma GCC unroll 8
        for (std::size_t u = 0; u < U; ++u) finish64_store(acc[u], q64, orow + (x + u) * C + c);
      } else {
#pragma GCC unroll 8
        for (std::size_t u = 0; u < U; ++u)
          store_narrow(finish(hn::Vec<D32>{acc[u]}, q), orow + (x + u) * C + c);
      }
    }
  }
  // Channels past the last full block (none when C is a multiple of 16: skip the loop over the
  // pixels, whose bookkeeping alone cost a fifth of the time of a 32-channel row).
  if (full < C)
  for (std::size_t x = x_begin; x < groups_end; ++x) {
    const std::size_t base = static_cast<std::size_t>(static_cast<std::int64_t>(x * S) - a.pad_left - origin) * C;
    for (std::size_t c = full; c < C; ++c) {
      std::uint32_t acc = static_cast<std::uint32_t>(a.bias[c]);
      for (std::size_t ky = 0; ky < 3; ++ky)
        for (std::size_t kx = 0; kx < 3; ++kx) {
          const std::int32_t xv = rows[ky][base + kx * C + c] + a.input_offset;
          const std::int32_t wv = filter[(ky * 3 + kx) * C + c] + a.filter_offset;
          acc += static_cast<std::uint32_t>(xv * wv);
        }
      orow[x * C + c] = static_cast<E>(finish_scalar(acc, a, c));
    }
  }
  return groups_end;
}
#endif

#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
/// Copies input row `iy` of the image at in_b into `dst` as a padded row for row3x3_pairs:
/// `width` columns starting at input column -pad_left, the columns outside the input (and
/// every column of a row outside it) holding the input zero point, whose taps add
/// (zp - zp) * w' = 0 as the reference's skipped taps do.
template <class E>
HWY_INLINE void padded_row(const simd::DepthwiseQ8Args& a, const E* in_b, std::int64_t iy, std::size_t width, E zp,
                           E* dst) {
  const std::size_t C = a.channels;
  const auto pad = static_cast<std::size_t>(a.pad_left);
  if (iy < 0 || iy >= static_cast<std::int64_t>(a.in_h)) {
    std::memset(dst, static_cast<unsigned char>(zp), width * C * sizeof(E));
    return;
  }
  const std::size_t lo = pad < width ? pad : width;
  std::size_t hi = a.in_w + pad < width ? a.in_w + pad : width;
  if (hi < lo) hi = lo;
  std::memset(dst, static_cast<unsigned char>(zp), lo * C * sizeof(E));
  std::memcpy(dst + lo * C, in_b + (static_cast<std::size_t>(iy) * a.in_w + (lo - pad)) * C, (hi - lo) * C * sizeof(E));
  std::memset(dst + hi * C, static_cast<unsigned char>(zp), (width - hi) * C * sizeof(E));
}
#endif

#if HWY_TARGET == HWY_AVX3_DL
// ---- the packed routine (AVX3_DL, padded rows, common rescales) ------------------------------
//
// row3x3_fast computes whole output rows from three padded rows stored as unsigned bytes
// (signed inputs are flipped, x ^ 0x80 = x + 128, when copied: padded_row_u8), so a pair vector
// is one byte permutation of two 16-byte loads with nothing more to do. It takes the rescales
// whose right shifts are all in [1, 22], with no left shift and |output offset| < 256 (every
// 8-bit layer with a multiplier below 1/2, the usual case), and spends fewer steps on them than
// finish64_store:
//  - the one-rounding rescale of Requant64 with the output offset folded (see above); the odd
//    channels' 64-bit sums are shifted right by e - 1 instead of 31 + e, which leaves the
//    32-bit result in their upper halves (bits 31 + e .. 62 + e of the sum), so one blend
//    joins both halves instead of a two-source permutation;
//  - four output vectors are narrowed together by saturating packs (int32 -> int16 -> 8 bits,
//    which is the clamp to E's range), the activation clamp done once on the 64 packed bytes,
//    and one dword permutation puts each output's 16 bytes in one 128-bit lane.
// The results are the reference's bit for bit like the other routines (tests/simd/depthwise_q8.cpp).

/// The constants of one 16-channel block of row3x3_fast.
struct FastBlock {
  __m512i wq0, wq1, wq2, wr0, wr1, bias;
  __m512i m, m_odd, add_even, add_odd, sh_even, sh_odd;
};

/// pair_bytes without the zero masking: both loads are zero-extended to 512 bits, so the
/// index's byte 16 of the first source is a zero (one fewer register copy per pair).
HWY_INLINE __m512i fast_pair_index() {
  alignas(64) std::uint8_t idx[64];
  for (std::size_t c = 0; c < 16; ++c) {
    idx[4 * c] = static_cast<std::uint8_t>(c);
    idx[4 * c + 1] = 16;
    idx[4 * c + 2] = static_cast<std::uint8_t>(64 + c);
    idx[4 * c + 3] = 16;
  }
  return _mm512_load_si512(idx);
}

HWY_INLINE __m512i fast_pair(const std::uint8_t* lo, const std::uint8_t* hi, __m512i idx) {
  const __m512i a = _mm512_zextsi128_si512(_mm_loadu_si128(reinterpret_cast<const __m128i*>(lo)));
  const __m512i b = _mm512_zextsi128_si512(_mm_loadu_si128(reinterpret_cast<const __m128i*>(hi)));
  return _mm512_permutex2var_epi8(a, idx, b);
}

/// Whether every channel's rescale is one row3x3_fast handles.
HWY_INLINE bool fast_rescale_ok(const simd::DepthwiseQ8Args& a) {
  if (a.output_offset <= -256 || a.output_offset >= 256) return false;
  for (std::size_t c = 0; c < a.channels; ++c)
    if (a.left_shift[c] != 0 || a.right_shift[c] < 1 || a.right_shift[c] > 22) return false;
  return true;
}

template <class E, class F>
HWY_INLINE FastBlock fast_block_at(const simd::DepthwiseQ8Args& a, std::size_t c) {
  const std::size_t C = a.channels;
  const auto* filter = static_cast<const F*>(a.filter);
  const __m512i wo = _mm512_set1_epi32(a.filter_offset);
  __m512i w[9];
  __m512i wsum = _mm512_setzero_si512();
  for (std::size_t k = 0; k < 9; ++k) {
    w[k] = _mm512_add_epi32(load_wide(filter + k * C + c).raw, wo);
    wsum = _mm512_add_epi32(wsum, w[k]);
  }
  FastBlock fb;
  fb.wq0 = pair16(w[0], w[3]), fb.wq1 = pair16(w[1], w[4]), fb.wq2 = pair16(w[2], w[5]);
  fb.wr0 = pair16(w[6], w[7]), fb.wr1 = pair16(_mm512_setzero_si512(), w[8]);
  // the rows hold x + 128 when E is signed
  const std::int32_t xo = a.input_offset - (std::is_signed_v<E> ? 128 : 0);
  fb.bias = _mm512_add_epi32(_mm512_loadu_si512(a.bias + c), _mm512_mullo_epi32(_mm512_set1_epi32(xo), wsum));
  alignas(64) std::int64_t add[16], sh[16];
  for (std::size_t i = 0; i < 16; ++i) {
    const std::int32_t e = a.right_shift[c + i];
    const std::size_t k = (i % 2) * 8 + i / 2;  // even channels in the first half, odd ones in the second
    add[k] = (std::int64_t{1} << 30) + (std::int64_t{1} << (30 + e)) +
             static_cast<std::int64_t>(a.output_offset) * (std::int64_t{1} << (31 + e));
    sh[k] = i % 2 == 0 ? 31 + e : e - 1;
  }
  fb.m = _mm512_loadu_si512(a.multiplier + c);
  fb.m_odd = _mm512_srli_epi64(fb.m, 32);
  fb.add_even = _mm512_load_si512(add), fb.add_odd = _mm512_load_si512(add + 8);
  fb.sh_even = _mm512_load_si512(sh), fb.sh_odd = _mm512_load_si512(sh + 8);
  return fb;
}


/// Narrows four rescaled vectors to E, clamps them to [lo, hi] when Clamp and stores vector k
/// at p + k * step.
template <class E, bool Clamp>
HWY_INLINE void fast_store4(__m512i r0, __m512i r1, __m512i r2, __m512i r3, __m512i lo, __m512i hi, __m512i order, E* p,
                            std::size_t step) {
  const __m512i w01 = _mm512_packs_epi32(r0, r1), w23 = _mm512_packs_epi32(r2, r3);
  __m512i b;
  if constexpr (std::is_signed_v<E>) {
    b = _mm512_packs_epi16(w01, w23);
    if constexpr (Clamp) b = _mm512_min_epi8(_mm512_max_epi8(b, lo), hi);
  } else {
    b = _mm512_packus_epi16(w01, w23);
    if constexpr (Clamp) b = _mm512_min_epu8(_mm512_max_epu8(b, lo), hi);
  }
  // 128-bit lane L holds channels 4L..4L+3 of vectors 0..3: gather each vector's 16 bytes
  b = _mm512_permutexvar_epi32(order, b);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm512_castsi512_si128(b));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p + step), _mm512_extracti32x4_epi32(b, 1));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p + 2 * step), _mm512_extracti32x4_epi32(b, 2));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p + 3 * step), _mm512_extracti32x4_epi32(b, 3));
}

/// Output row `orow` from the padded rows rows[0..2] (unsigned bytes, column 0 = input column
/// -pad_left, see padded_row_u8), every column (out_w >= 8). `blocks`, when not null, holds
/// every full block's constants; otherwise each block's are computed here.
template <std::size_t S, class E, class F, bool Clamp>
HWY_NOINLINE void row3x3_fast(const simd::DepthwiseQ8Args& a, const FastBlock* blocks, const std::uint8_t* const* rows,
                              E* orow) {
  constexpr std::size_t U = 8, N = 16;
  const std::size_t C = a.channels, W = a.out_w;
  const std::size_t full = C - C % N;
  const __m512i idx = fast_pair_index();
  const __m512i limit = _mm512_set1_epi64(-(std::int64_t{1} << 30)), neg = _mm512_set1_epi64(std::int64_t{1} << 31);
  const __m512i lo = _mm512_set1_epi8(static_cast<char>(a.act_min)), hi = _mm512_set1_epi8(static_cast<char>(a.act_max));
  const __m512i order = _mm512_set_epi32(15, 11, 7, 3, 14, 10, 6, 2, 13, 9, 5, 1, 12, 8, 4, 0);
  for (std::size_t c = 0; c < full; c += N) {
    FastBlock local;
    if (blocks == nullptr) local = fast_block_at<E, F>(a, c);
    const FastBlock& fb = blocks != nullptr ? blocks[c / N] : local;
    // Copies, not references: the 8-bit stores may alias any memory.
    const __m512i wq0 = fb.wq0, wq1 = fb.wq1, wq2 = fb.wq2, wr0 = fb.wr0, wr1 = fb.wr1, b = fb.bias;
    const __m512i m = fb.m, m_odd = fb.m_odd, add_even = fb.add_even, add_odd = fb.add_odd, sh_even = fb.sh_even,
                  sh_odd = fb.sh_odd;
    for (std::size_t x0 = 0; x0 < W; x0 += U) {
      // the last group is moved back to end at W (recomputing a few outputs with the same values)
      const std::size_t x = x0 + U <= W ? x0 : W - U;
      const std::size_t off = x * S * C + c;
      __m512i acc[U];
#pragma GCC unroll 8
      for (std::size_t u = 0; u < U; ++u) acc[u] = b;
      const std::uint8_t *col0 = rows[0] + off, *col1 = rows[1] + off, *col2 = rows[2] + off;
#pragma GCC unroll 24
      for (std::size_t j = 0; j < (U - 1) * S + 3; ++j, col0 += C, col1 += C, col2 += C) {
        const __m512i qv = fast_pair(col0, col1, idx);
#pragma GCC unroll 3
        for (std::size_t kx = 0; kx < 3; ++kx) {
          if (j >= kx && (j - kx) % S == 0 && (j - kx) / S < U) {
            const __m512i wk = kx == 0 ? wq0 : (kx == 1 ? wq1 : wq2);
            acc[(j - kx) / S] = Dpwssd(acc[(j - kx) / S], qv, wk);
          }
        }
        if (j >= 1) {
          // (row 2 column i, column i + 1), i = j - 1: output u with i = u S takes it with
          // (w20, w21), output u with i = u S + 1 with (0, w22)
          const std::size_t i = j - 1;
          const __m512i rv = fast_pair(col2 - C, col2, idx);
          if (i % S == 0 && i / S < U) acc[i / S] = Dpwssd(acc[i / S], rv, wr0);
          if (i >= 1 && (i - 1) % S == 0 && (i - 1) / S < U) acc[(i - 1) / S] = Dpwssd(acc[(i - 1) / S], rv, wr1);
        }
      }
      __m512i r[U];
#pragma GCC unroll 8
      for (std::size_t u = 0; u < U; ++u)
        r[u] = Rescale64(acc[u], m, m_odd, add_even, add_odd, sh_even, sh_odd, limit, neg);  // (simd/base-inl.h)
      E* o = orow + x * C + c;
      fast_store4<E, Clamp>(r[0], r[1], r[2], r[3], lo, hi, order, o, C);
      fast_store4<E, Clamp>(r[4], r[5], r[6], r[7], lo, hi, order, o + 4 * C, C);
    }
  }
  if (full < C) {
    const auto* filter = static_cast<const F*>(a.filter);
    const std::int32_t xo = a.input_offset - (std::is_signed_v<E> ? 128 : 0);
    for (std::size_t x = 0; x < W; ++x)
      for (std::size_t c = full; c < C; ++c) {
        std::uint32_t acc = static_cast<std::uint32_t>(a.bias[c]);
        for (std::size_t ky = 0; ky < 3; ++ky)
          for (std::size_t kx = 0; kx < 3; ++kx) {
            const std::int32_t xv = rows[ky][(x * S + kx) * C + c] + xo;
            const std::int32_t wv = filter[(ky * 3 + kx) * C + c] + a.filter_offset;
            acc += static_cast<std::uint32_t>(xv * wv);
          }
        orow[x * C + c] = static_cast<E>(finish_scalar(acc, a, c));
      }
  }
}

/// Output row `orow` (16 channels from its first, block constants fb) of run_ring, from the ring
/// of the block's three padded input rows interleaved per column: for column j and slot s
/// (input row iy is in slot iy mod 3) the block's 16 bytes are at ring + (j * 3 + s) * 16 (as
/// unsigned bytes, see ring_row). One 64-byte load at a column then holds its three rows (and
/// the next column's first), and one at its slot s also holds the next column's slot s 48
/// bytes further, so a pair vector is one single-source byte permutation (vpermb) of one load
/// (padded_row's rows need a two-source one, vpermt2b, two uops). Groups of U outputs, the last
/// moved back to end at out_w (>= U); `top` is the slot of the window's first row. The ring
/// needs 64 readable bytes past its last column.
/// row3x3_ring's byte permutations: the pair (top row, middle row) of a column for each slot of
/// the top row, and the pair (column, next column) of a row.
struct RingIndex {
  __m512i vertical[3], horizontal;
};

HWY_INLINE RingIndex ring_index() {
  RingIndex ri;
  alignas(64) std::uint8_t idx[64];
  for (std::size_t top = 0; top < 4; ++top) {
    for (std::size_t c = 0; c < 16; ++c) {
      idx[4 * c] = static_cast<std::uint8_t>(top < 3 ? 16 * top + c : c);
      idx[4 * c + 2] = static_cast<std::uint8_t>(top < 3 ? 16 * ((top + 1) % 3) + c : 48 + c);
      idx[4 * c + 1] = idx[4 * c + 3] = 0;
    }
    (top < 3 ? ri.vertical[top] : ri.horizontal) = _mm512_load_si512(idx);
  }
  return ri;
}

template <std::size_t S, std::size_t U, class E, bool Clamp>
HWY_NOINLINE void row3x3_ring(const simd::DepthwiseQ8Args& a, const FastBlock& fb, const RingIndex& ri,
                              const std::uint8_t* ring, std::size_t top, E* orow) {
  static_assert(U % 4 == 0, "outputs are stored four at a time");
  const std::size_t C = a.channels, W = a.out_w;
  const std::size_t bottom = (top + 2) % 3;
  constexpr __mmask64 kLow = 0x5555555555555555ull;  // the low byte of each 16-bit half
  const __m512i vidx = ri.vertical[top], hidx = ri.horizontal;
  const __m512i limit = _mm512_set1_epi64(-(std::int64_t{1} << 30)), neg = _mm512_set1_epi64(std::int64_t{1} << 31);
  const __m512i lo = _mm512_set1_epi8(static_cast<char>(a.act_min)), hi = _mm512_set1_epi8(static_cast<char>(a.act_max));
  const __m512i order = _mm512_set_epi32(15, 11, 7, 3, 14, 10, 6, 2, 13, 9, 5, 1, 12, 8, 4, 0);
  // Copies, not references: the 8-bit stores may alias any memory.
  const __m512i wq0 = fb.wq0, wq1 = fb.wq1, wq2 = fb.wq2, wr0 = fb.wr0, wr1 = fb.wr1, b = fb.bias;
  const __m512i m = fb.m, m_odd = fb.m_odd, add_even = fb.add_even, add_odd = fb.add_odd, sh_even = fb.sh_even,
                sh_odd = fb.sh_odd;
  for (std::size_t x0 = 0; x0 < W; x0 += U) {
    const std::size_t x = x0 + U <= W ? x0 : W - U;
    __m512i acc[U];
#pragma GCC unroll 8
    for (std::size_t u = 0; u < U; ++u) acc[u] = b;
    const std::uint8_t* col = ring + x * S * 48;
#pragma GCC unroll 24
    for (std::size_t j = 0; j < (U - 1) * S + 3; ++j, col += 48) {
      const __m512i qv = _mm512_maskz_permutexvar_epi8(kLow, vidx, _mm512_loadu_si512(col));
#pragma GCC unroll 3
      for (std::size_t kx = 0; kx < 3; ++kx) {
        if (j >= kx && (j - kx) % S == 0 && (j - kx) / S < U) {
          const __m512i wk = kx == 0 ? wq0 : (kx == 1 ? wq1 : wq2);
          acc[(j - kx) / S] = Dpwssd(acc[(j - kx) / S], qv, wk);
        }
      }
      if (j + 1 < (U - 1) * S + 3) {
        // (bottom row column j, column j + 1): output u with j = u S takes it with
        // (w20, w21), output u with j = u S + 1 with (0, w22)
        const __m512i rv = _mm512_maskz_permutexvar_epi8(kLow, hidx, _mm512_loadu_si512(col + 16 * bottom));
        if (j % S == 0 && j / S < U) acc[j / S] = Dpwssd(acc[j / S], rv, wr0);
        if (j >= 1 && (j - 1) % S == 0 && (j - 1) / S < U) acc[(j - 1) / S] = Dpwssd(acc[(j - 1) / S], rv, wr1);
      }
    }
    __m512i r[U];
#pragma GCC unroll 8
    for (std::size_t u = 0; u < U; ++u)
      r[u] = Rescale64(acc[u], m, m_odd, add_even, add_odd, sh_even, sh_odd, limit, neg);  // (simd/base-inl.h)
    E* o = orow + x * C;
#pragma GCC unroll 2
    for (std::size_t u = 0; u < U; u += 4)
      fast_store4<E, Clamp>(r[u], r[u + 1], r[u + 2], r[u + 3], lo, hi, order, o + u * C, C);
  }
}

/// Writes the 16 channels from c of input row iy (the input zero point outside the input;
/// x ^ 0x80 when E is signed) into slot `slot` of row3x3_ring's ring.
template <class E>
HWY_INLINE void ring_row(const simd::DepthwiseQ8Args& a, const E* in_b, std::int64_t iy, std::size_t width,
                         std::uint8_t zp, std::size_t slot, std::size_t c, std::uint8_t* ring) {
  const std::size_t C = a.channels;
  const auto pad = a.pad_left;
  const __m128i zv = _mm_set1_epi8(static_cast<char>(zp));
  const __m128i flip = _mm_set1_epi8(static_cast<char>(std::is_signed_v<E> ? 0x80 : 0));
  // columns [lo, hi) are inside the input (none when the row is outside it)
  std::size_t lo = 0, hi = 0;
  if (iy >= 0 && iy < static_cast<std::int64_t>(a.in_h)) {
    const std::int64_t w = static_cast<std::int64_t>(width), l = pad, h = pad + static_cast<std::int64_t>(a.in_w);
    lo = static_cast<std::size_t>(l < 0 ? 0 : (l > w ? w : l));
    hi = static_cast<std::size_t>(h < static_cast<std::int64_t>(lo) ? static_cast<std::int64_t>(lo) : (h > w ? w : h));
  }
  std::uint8_t* dst = ring + slot * 16;
  for (std::size_t j = 0; j < lo; ++j) _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + j * 48), zv);
  if (lo < hi) {
    const E* src = in_b + (static_cast<std::size_t>(iy) * a.in_w + (lo - static_cast<std::size_t>(pad))) * C + c;
    for (std::size_t j = lo; j < hi; ++j, src += C)
      _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + j * 48),
                       _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(src)), flip));
  }
  for (std::size_t j = hi; j < width; ++j) _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + j * 48), zv);
}

inline constexpr std::size_t kRingBytes = 32768;

/// Whether run_ring takes the run: 3x3, dilation 1, equal strides 1 or 2, an input zero point
/// in E's range, whole 16-channel blocks, at least 4 outputs a row, a ring that fits
/// kRingBytes, and rescales row3x3_fast handles (fast_rescale_ok).
template <class E>
HWY_INLINE bool ring_ok(const simd::DepthwiseQ8Args& a) {
  if (!(a.filter_h == 3 && a.filter_w == 3 && a.dilation_h == 1 && a.dilation_w == 1 && a.stride_h == a.stride_w &&
        (a.stride_w == 1 || a.stride_w == 2) && a.in_w >= 3 && a.in_h >= 3 && a.out_w >= 4 && a.channels % 16 == 0))
    return false;
  const std::int32_t zp = -a.input_offset;
  if (zp < std::numeric_limits<E>::min() || zp > std::numeric_limits<E>::max()) return false;
  const std::size_t width = (a.out_w - 1) * static_cast<std::size_t>(a.stride_w) + 3;
  return 3 * width * 16 + 64 <= kRingBytes && fast_rescale_ok(a);
}

/// The run through row3x3_ring: when every block's three padded rows fit the ring, output rows
/// outer (each input row copied once, the blocks' constants computed once); otherwise one
/// 16-channel block at a time (its constants computed once, its three rows in the ring, each
/// input row copied once per block).
template <class E, class F>
HWY_NOINLINE void run_ring(const simd::DepthwiseQ8Args& a) {
  const std::size_t C = a.channels, S = static_cast<std::size_t>(a.stride_w);
  const std::size_t width = (a.out_w - 1) * S + 3;
  alignas(64) std::uint8_t ring[kRingBytes];
  const auto zp = static_cast<std::uint8_t>(static_cast<std::uint8_t>(static_cast<E>(-a.input_offset)) ^
                                            (std::is_signed_v<E> ? 0x80u : 0u));
  const bool clamp = a.act_min > static_cast<std::int32_t>(std::numeric_limits<E>::min()) ||
                     a.act_max < static_cast<std::int32_t>(std::numeric_limits<E>::max());
  const bool wide = a.out_w >= 8;
  using Row = void (*)(const simd::DepthwiseQ8Args&, const FastBlock&, const RingIndex&, const std::uint8_t*, std::size_t,
                       E*);
  const RingIndex ri = ring_index();
  Row row;
  if (S == 1)
    row = wide ? (clamp ? &row3x3_ring<1, 8, E, true> : &row3x3_ring<1, 8, E, false>)
               : (clamp ? &row3x3_ring<1, 4, E, true> : &row3x3_ring<1, 4, E, false>);
  else
    row = wide ? (clamp ? &row3x3_ring<2, 8, E, true> : &row3x3_ring<2, 8, E, false>)
               : (clamp ? &row3x3_ring<2, 4, E, true> : &row3x3_ring<2, 4, E, false>);
  const auto* in = static_cast<const E*>(a.in);
  auto* out = static_cast<E*>(a.out);
  constexpr std::size_t kMaxBlocks = 16;
  const std::size_t blocks = C / 16;
  if (blocks <= kMaxBlocks && 3 * width * C + 64 <= kRingBytes) {
    // Every block's rows fit: output rows outer, so the input and output rows are read and
    // written whole (block-outer order reads the input once per block, 16 bytes a pixel,
    // which costs more than it saves on wide tensors).
    FastBlock fbs[kMaxBlocks];
    for (std::size_t k = 0; k < blocks; ++k) fbs[k] = fast_block_at<E, F>(a, 16 * k);
    for (std::size_t b = 0; b < a.batch; ++b) {
      const E* in_b = in + b * a.in_h * a.in_w * C;
      E* out_b = out + b * a.out_h * a.out_w * C;
      std::int64_t held[3] = {std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::min(),
                              std::numeric_limits<std::int64_t>::min()};
      for (std::size_t y = a.row_begin; y < (a.row_end < a.out_h ? a.row_end : a.out_h); ++y) {
        const std::int64_t iy0 = static_cast<std::int64_t>(y) * a.stride_h - a.pad_top;
        for (std::int64_t ky = 0; ky < 3; ++ky) {
          const std::int64_t iy = iy0 + ky;
          const auto slot = static_cast<std::size_t>(((iy % 3) + 3) % 3);
          if (held[slot] != iy) {
            for (std::size_t k = 0; k < blocks; ++k) ring_row(a, in_b, iy, width, zp, slot, 16 * k, ring + k * width * 48);
            held[slot] = iy;
          }
        }
        const auto top = static_cast<std::size_t>(((iy0 % 3) + 3) % 3);
        for (std::size_t k = 0; k < blocks; ++k)
          row(a, fbs[k], ri, ring + k * width * 48, top, out_b + y * a.out_w * C + 16 * k);
      }
    }
    return;
  }
  for (std::size_t b = 0; b < a.batch; ++b) {
    const E* in_b = in + b * a.in_h * a.in_w * C;
    E* out_b = out + b * a.out_h * a.out_w * C;
    for (std::size_t c = 0; c < C; c += 16) {
      const FastBlock fb = fast_block_at<E, F>(a, c);
      std::int64_t held[3] = {std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::min(),
                              std::numeric_limits<std::int64_t>::min()};
      for (std::size_t y = a.row_begin; y < (a.row_end < a.out_h ? a.row_end : a.out_h); ++y) {
        const std::int64_t iy0 = static_cast<std::int64_t>(y) * a.stride_h - a.pad_top;
        for (std::int64_t ky = 0; ky < 3; ++ky) {
          const std::int64_t iy = iy0 + ky;
          const auto slot = static_cast<std::size_t>(((iy % 3) + 3) % 3);
          if (held[slot] != iy) ring_row(a, in_b, iy, width, zp, slot, c, ring), held[slot] = iy;
        }
        row(a, fb, ri, ring, static_cast<std::size_t>(((iy0 % 3) + 3) % 3), out_b + y * a.out_w * C + c);
      }
    }
  }
}

/// padded_row for row3x3_fast: the row as unsigned bytes (x ^ 0x80 when E is signed).
template <class E>
HWY_INLINE void padded_row_u8(const simd::DepthwiseQ8Args& a, const E* in_b, std::int64_t iy, std::size_t width,
                              std::uint8_t zp, std::uint8_t* dst) {
  const std::size_t C = a.channels;
  const auto pad = static_cast<std::size_t>(a.pad_left);
  if (iy < 0 || iy >= static_cast<std::int64_t>(a.in_h)) {
    std::memset(dst, zp, width * C);
    return;
  }
  const std::size_t lo = pad < width ? pad : width;
  std::size_t hi = a.in_w + pad < width ? a.in_w + pad : width;
  if (hi < lo) hi = lo;
  std::memset(dst, zp, lo * C);
  const E* src = in_b + (static_cast<std::size_t>(iy) * a.in_w + (lo - pad)) * C;
  const std::size_t n = (hi - lo) * C;
  if constexpr (std::is_signed_v<E>) {
    std::size_t i = 0;
    const __m512i flip = _mm512_set1_epi8(static_cast<char>(0x80));
    for (; i + 64 <= n; i += 64)
      _mm512_storeu_si512(dst + lo * C + i, _mm512_xor_si512(_mm512_loadu_si512(src + i), flip));
    for (; i < n; ++i) dst[lo * C + i] = static_cast<std::uint8_t>(static_cast<std::uint8_t>(src[i]) ^ 0x80u);
  } else {
    std::memcpy(dst + lo * C, src, n);
  }
  std::memset(dst + hi * C, zp, (width - hi) * C);
}
#endif

#if HWY_ARCH_X86 && HWY_TARGET == HWY_AVX2
// ---- AVX2: 16-bit tap pairs on padded rows, an unsigned one-rounding rescale -------------
//
// run_avx2 works on blocks of 8 channels (one int32 lane each; the last block may be partial)
// and chunks of blocks whose three padded input rows fit its ring (every channel, usually).
// The ring holds input row iy in slot iy mod 3, copied once per image and chunk (avx2_row): the
// padded columns one after the other, the chunk's channels in each, as unsigned bytes (x ^ 0x80
// = x + 128 when E is signed; the input zero point outside the input, whose taps add nothing
// once the input offset is folded into the bias). A pair vector, int32 lane c = (lo[c], hi[c])
// zero-extended to int16, is then one in-lane byte shuffle (vpshufb) of the blend of two 8-byte
// broadcasts: (row 0, row 1) of a column, or (row 2 column j, row 2 column j + 1). vpmaddwd
// with the pair filter vectors (filter values minus the filter zero point, in [-255, 255], fit
// int16) gives lo * w_lo + hi * w_hi exactly per lane (a pair's sum fits int32; the accumulation
// wraps like the reference's sums). The 9 taps make 5 pairs per output: the 3 columns' (row 0,
// row 1), and on row 2 (column 0, column 1) with (w20, w21) and, with stride 1, (column 1,
// column 2) with (0, w22), with stride 2 (column 2, column 3) with (w22, 0) (the pair the next
// output takes with (w20, w21); the padded rows have a column more for the last one). Each pair
// vector is built once per group of U outputs (8 with stride 1, 4 with stride 2; the last group
// moved back to end at the row's end) and used by every output of it whose window holds it.
//
// Rescale (every channel with no left shift, a right shift e in [1, 31] and a multiplier
// m >= 0, which quantize_multiplier gives for multipliers below 1/2): AVX2 multiplies 32-bit
// lanes into 64 bits (vpmuludq, even lanes) and shifts 64-bit lanes right only logically, so the
// sum is kept non-negative. The accumulator holds a' = acc + 2^31 (the 2^31 is in the bias,
// the sum wraps as the reference's), an unsigned value in [0, 2^32). With P = acc * m + 2^30,
// Requant64's derivation gives the reference's rescale as
// r = floor((P + 2^(30+e) - 2^31 [P < 0]) / 2^(31+e)), and for m >= 0, e >= 1 the flag
// [P < 0] may be [acc < 0] (they differ only for acc < 0 with -2^30 <= acc * m <= 0, where both
// give 0: the numerator is then in [0, 2^(31+e))). Now
//   a' * m + 2^31 [a' >= 2^31] = acc * m + 2^31 m + 2^31 - 2^31 [acc < 0],
// and [a' >= 2^31] 2^31 is a' & 2^31, so with the per-channel constant
//   A = 2^30 + 2^(30+e) - 2^31 - 2^31 m + K 2^(31+e),  K = ceil((m + 1) / 2^e),
// T = a' m + (a' & 2^31) + A = P + 2^(30+e) - 2^31 [acc < 0] + K 2^(31+e), which lies in
// [0, 2^64) (A >= 2^30 > 0 and a' m, A < 2^63), and T >> (31+e) (logical) = r + K exactly.
// The even lanes take that shift; the odd ones (moved down by 32 bits for vpmuludq) are shifted
// by e - 1 instead, which leaves the same 32 bits in their upper half, so one blend joins both;
// then output offset - K is added in 32-bit lanes (r itself fits int32). Four outputs are
// narrowed together with saturating packs (the clamp to E's range), the activation clamp done on
// the packed bytes. So the results are the reference's bit for bit (tests/simd/depthwise_q8.cpp).

/// The constants of one 8-channel block of run_avx2.
struct Avx2Block {
  __m256i wq0, wq1, wq2, wr0, wr1, bias;
  Avx2Requant rq;  // (simd/base-inl.h)
};

/// Whether every channel's rescale is one run_avx2's rescale handles.
HWY_INLINE bool avx2_rescale_ok(const simd::DepthwiseQ8Args& a) {
  for (std::size_t c = 0; c < a.channels; ++c)
    if (!Avx2RequantFits(a.multiplier[c], a.left_shift[c], a.right_shift[c])) return false;
  return true;
}

inline constexpr std::size_t kAvx2RingBytes = 32768;
inline constexpr std::size_t kAvx2MaxBlocks = 32;  ///< blocks whose constants are kept at once

/// The padded width of run_avx2's rows: (W - 1) S + 3 columns, and one more with stride 2 (the
/// last output's (row 2, column 2) tap is paired with the column after it, weighted 0).
HWY_INLINE std::size_t avx2_width(const simd::DepthwiseQ8Args& a) {
  return (a.out_w - 1) * static_cast<std::size_t>(a.stride_w) + 3 + (a.stride_w == 2 ? 1 : 0);
}

/// Whether run_avx2 takes the run: 3x3, dilation 1, equal strides 1 or 2, an input zero point
/// in E's range, at least 4 outputs a row, three padded rows of one block that fit the ring, and
/// rescales avx2_rescale_ok accepts.
template <class E>
HWY_INLINE bool avx2_ok(const simd::DepthwiseQ8Args& a) {
  if (!(a.filter_h == 3 && a.filter_w == 3 && a.dilation_h == 1 && a.dilation_w == 1 && a.stride_h == a.stride_w &&
        (a.stride_w == 1 || a.stride_w == 2) && a.out_w >= 4 && a.pad_left >= 0 && a.pad_top >= 0))
    return false;
  const std::int32_t zp = -a.input_offset;
  if (zp < std::numeric_limits<E>::min() || zp > std::numeric_limits<E>::max()) return false;
  return 3 * avx2_width(a) * 8 <= kAvx2RingBytes && avx2_rescale_ok(a);
}

/// int32 lanes of (lo's low 16 bits, hi's low 16 bits).
HWY_INLINE __m256i avx2_pair16(__m256i lo, __m256i hi) {
  return _mm256_blend_epi16(lo, _mm256_slli_epi32(hi, 16), 0xAA);
}

/// The rescale's 64-bit constant A = 2^30 + 2^(30+e) - 2^31 - 2^31 m + K 2^(31+e) per 64-bit
/// lane, from e, m and K in the lanes' low halves.
HWY_INLINE __m256i avx2_add64(__m256i e, __m256i m, __m256i K) {
  const __m256i A = _mm256_add_epi64(_mm256_set1_epi64x((std::int64_t{1} << 30) - (std::int64_t{1} << 31)),
                                     _mm256_sllv_epi64(_mm256_set1_epi64x(1), _mm256_add_epi64(e, _mm256_set1_epi64x(30))));
  return _mm256_add_epi64(_mm256_sub_epi64(A, _mm256_slli_epi64(m, 31)),
                          _mm256_sllv_epi64(K, _mm256_add_epi64(e, _mm256_set1_epi64x(31))));
}

/// The constants of a whole block (channels c0..c0 + 8), the same as avx2_block_at's, with
/// vector steps (the per-block cost counts on small images with many channels).
template <class E, class F>
HWY_INLINE Avx2Block avx2_block_full(const simd::DepthwiseQ8Args& a, std::size_t c0) {
  const std::size_t C = a.channels;
  const auto* filter = static_cast<const F*>(a.filter);
  const std::int32_t xo = a.input_offset - (std::is_signed_v<E> ? 128 : 0);
  const __m256i wo = _mm256_set1_epi32(a.filter_offset);
  __m256i w[9];
  __m256i wsum = _mm256_setzero_si256();
  for (std::size_t t = 0; t < 9; ++t) {
    const __m128i v = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(filter + t * C + c0));
    w[t] = _mm256_add_epi32(std::is_signed_v<F> ? _mm256_cvtepi8_epi32(v) : _mm256_cvtepu8_epi32(v), wo);
    wsum = _mm256_add_epi32(wsum, w[t]);
  }
  Avx2Block kb;
  kb.wq0 = avx2_pair16(w[0], w[3]), kb.wq1 = avx2_pair16(w[1], w[4]), kb.wq2 = avx2_pair16(w[2], w[5]);
  kb.wr0 = avx2_pair16(w[6], w[7]);
  kb.wr1 = a.stride_w == 2 ? avx2_pair16(w[8], _mm256_setzero_si256()) : avx2_pair16(_mm256_setzero_si256(), w[8]);
  const __m256i bias = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a.bias + c0));
  kb.bias = _mm256_add_epi32(_mm256_add_epi32(bias, _mm256_mullo_epi32(_mm256_set1_epi32(xo), wsum)),
                             _mm256_set1_epi32(std::numeric_limits<std::int32_t>::min()));
  kb.rq.m = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a.multiplier + c0));
  kb.rq.m_odd = _mm256_srli_epi64(kb.rq.m, 32);
  const __m256i e = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a.right_shift + c0));
  // K = ceil((m + 1) / 2^e) = (m + 2^e) >> e (below 2^32 for m < 2^31, e <= 31)
  const __m256i K = _mm256_srlv_epi32(_mm256_add_epi32(kb.rq.m, _mm256_sllv_epi32(_mm256_set1_epi32(1), e)), e);
  kb.rq.offset = _mm256_sub_epi32(_mm256_set1_epi32(a.output_offset), K);
  // A = 2^30 + 2^(30+e) - 2^31 - 2^31 m + K 2^(31+e) per 64-bit lane: the even channels' values
  // (the low halves), then the odd ones' moved down
  const __m256i low = _mm256_set1_epi64x(0xFFFFFFFFll);
  const __m256i e_even = _mm256_and_si256(e, low), e_odd = _mm256_srli_epi64(e, 32);
  kb.rq.add_even = avx2_add64(e_even, _mm256_and_si256(kb.rq.m, low), _mm256_and_si256(K, low));
  kb.rq.add_odd = avx2_add64(e_odd, kb.rq.m_odd, _mm256_srli_epi64(K, 32));
  kb.rq.sh_even = _mm256_add_epi64(e_even, _mm256_set1_epi64x(31));
  kb.rq.sh_odd = _mm256_sub_epi64(e_odd, _mm256_set1_epi64x(1));
  return kb;
}

/// Block k's constants (channels 8k.. of which n exist; the others get zero filters).
template <class E, class F>
HWY_INLINE Avx2Block avx2_block_at(const simd::DepthwiseQ8Args& a, std::size_t k) {
  const std::size_t C = a.channels, c0 = 8 * k, n = C - c0 < 8 ? C - c0 : 8;
  if (n == 8) return avx2_block_full<E, F>(a, c0);
  const auto* filter = static_cast<const F*>(a.filter);
  // the rows hold x + 128 when E is signed
  const std::int32_t xo = a.input_offset - (std::is_signed_v<E> ? 128 : 0);
  alignas(32) std::int16_t wp[5][16];
  alignas(32) std::uint32_t bias[8];
  for (std::size_t i = 0; i < 8; ++i) {
    std::int32_t w[9] = {};
    std::int32_t wsum = 0;
    if (i < n)
      for (std::size_t t = 0; t < 9; ++t) w[t] = filter[t * C + c0 + i] + a.filter_offset, wsum += w[t];
    wp[0][2 * i] = static_cast<std::int16_t>(w[0]), wp[0][2 * i + 1] = static_cast<std::int16_t>(w[3]);
    wp[1][2 * i] = static_cast<std::int16_t>(w[1]), wp[1][2 * i + 1] = static_cast<std::int16_t>(w[4]);
    wp[2][2 * i] = static_cast<std::int16_t>(w[2]), wp[2][2 * i + 1] = static_cast<std::int16_t>(w[5]);
    wp[3][2 * i] = static_cast<std::int16_t>(w[6]), wp[3][2 * i + 1] = static_cast<std::int16_t>(w[7]);
    // (0, w22) with stride 1, (w22, 0) with stride 2 (see row3x3_avx2)
    wp[4][2 * i] = a.stride_w == 2 ? static_cast<std::int16_t>(w[8]) : 0;
    wp[4][2 * i + 1] = a.stride_w == 2 ? 0 : static_cast<std::int16_t>(w[8]);
    const std::uint32_t b = i < n ? static_cast<std::uint32_t>(a.bias[c0 + i]) : 0u;
    bias[i] = b + static_cast<std::uint32_t>(xo) * static_cast<std::uint32_t>(wsum) + 0x80000000u;
  }
  Avx2Block kb;
  kb.wq0 = _mm256_load_si256(reinterpret_cast<const __m256i*>(wp[0]));
  kb.wq1 = _mm256_load_si256(reinterpret_cast<const __m256i*>(wp[1]));
  kb.wq2 = _mm256_load_si256(reinterpret_cast<const __m256i*>(wp[2]));
  kb.wr0 = _mm256_load_si256(reinterpret_cast<const __m256i*>(wp[3]));
  kb.wr1 = _mm256_load_si256(reinterpret_cast<const __m256i*>(wp[4]));
  kb.bias = _mm256_load_si256(reinterpret_cast<const __m256i*>(bias));
  kb.rq = Avx2RequantAt(a.multiplier + c0, a.right_shift + c0, n, a.output_offset);
  return kb;
}

/// The rescale of one accumulator (a' = acc + 2^31), + the output offset (see above).
HWY_INLINE __m256i avx2_rescale(__m256i x, const Avx2Block& kb, __m256i top) {
  return Avx2RequantApply(x, kb.rq, top);
}

/// vpshufb's index for a pair vector: int32 lane c takes bytes c and 8 + c of its 128-bit half
/// (lanes 0..3 of the low half, 4..7 of the high one; both halves hold the same 16 bytes: lo's
/// 8 channels then hi's), each zero-extended to 16 bits.
HWY_INLINE __m256i avx2_pair_index() {
  return _mm256_setr_epi8(0, -128, 8, -128, 1, -128, 9, -128, 2, -128, 10, -128, 3, -128, 11, -128,  //
                          4, -128, 12, -128, 5, -128, 13, -128, 6, -128, 14, -128, 7, -128, 15, -128);
}

HWY_INLINE __m256i avx2_bcast8(const std::uint8_t* p) {
  std::int64_t v;
  std::memcpy(&v, p, 8);
  return _mm256_set1_epi64x(v);
}

/// Stores four rescaled vectors (outputs u = 0..3 of one block) as E at p + u * step, clamped to
/// [lo, hi] when Clamp; when n < 8 (the last block), the first n channels only.
template <class E, bool Clamp>
HWY_INLINE void avx2_store4(__m256i r0, __m256i r1, __m256i r2, __m256i r3, __m256i lo, __m256i hi, E* p,
                            std::size_t step, std::size_t n) {
  const __m256i w01 = _mm256_packs_epi32(r0, r1), w23 = _mm256_packs_epi32(r2, r3);
  __m256i b;
  if constexpr (std::is_signed_v<E>) {
    b = _mm256_packs_epi16(w01, w23);
    if constexpr (Clamp) b = _mm256_min_epi8(_mm256_max_epi8(b, lo), hi);
  } else {
    b = _mm256_packus_epi16(w01, w23);
    if constexpr (Clamp) b = _mm256_min_epu8(_mm256_max_epu8(b, lo), hi);
  }
  // half h holds channels 4h..4h+3 of outputs 0..3 (a 32-bit lane each): two unpacks of the
  // halves' lanes give each output's 8 bytes (rather than one vpermd, slow on some cores)
  const __m128i h0 = _mm256_castsi256_si128(b), h1 = _mm256_extracti128_si256(b, 1);
  const __m128i b01 = _mm_unpacklo_epi32(h0, h1), b23 = _mm_unpackhi_epi32(h0, h1);
  if (n == 8) {
    _mm_storel_epi64(reinterpret_cast<__m128i*>(p), b01);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(p + step), _mm_unpackhi_epi64(b01, b01));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(p + 2 * step), b23);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(p + 3 * step), _mm_unpackhi_epi64(b23, b23));
  } else {
    alignas(32) E tmp[32];
    _mm_store_si128(reinterpret_cast<__m128i*>(tmp), b01);
    _mm_store_si128(reinterpret_cast<__m128i*>(tmp + 16), b23);
    for (std::size_t u = 0; u < 4; ++u) std::memcpy(p + u * step, tmp + 8 * u, n * sizeof(E));
  }
}

/// One output row of the blocks kbs[0..kn) of a channel chunk: r0..r2 are the chunk's three
/// padded rows (cs bytes a column, column 0 = input column -pad_left), block k's bytes 8 k..
/// of each column, its outputs from o + 8 k; the last block has n_last channels. Groups of U
/// outputs, the last moved back to end at W (>= U).
template <std::size_t S, std::size_t U, class E, bool Clamp>
HWY_NOINLINE void row3x3_avx2(const Avx2Block* kbs, std::size_t kn, const std::uint8_t* r0, const std::uint8_t* r1,
                              const std::uint8_t* r2, std::size_t cs, E* o, std::size_t W, std::size_t C,
                              std::size_t n_last, std::int32_t act_min, std::int32_t act_max) {
  constexpr std::size_t J = (U - 1) * S + 3;
  const __m256i idx = avx2_pair_index();
  const __m256i top = _mm256_set1_epi64x(0x80000000ll);
  const __m256i lo = _mm256_set1_epi8(static_cast<char>(act_min)), hi = _mm256_set1_epi8(static_cast<char>(act_max));
  for (std::size_t k = 0; k < kn; ++k, r0 += 8, r1 += 8, r2 += 8, o += 8) {
    // Copies, not references: the 8-bit stores may alias any memory.
    const Avx2Block q = kbs[k];
    const __m256i wq0 = q.wq0, wq1 = q.wq1, wq2 = q.wq2, wr0 = q.wr0, wr1 = q.wr1, b = q.bias;
    const std::size_t n = k + 1 == kn ? n_last : 8;
    for (std::size_t x0 = 0; x0 < W; x0 += U) {
      const std::size_t x = x0 + U <= W ? x0 : W - U;
      __m256i acc[U];
#pragma GCC unroll 8
      for (std::size_t u = 0; u < U; ++u) acc[u] = b;
      const std::uint8_t *c0 = r0 + x * S * cs, *c1 = r1 + x * S * cs, *c2 = r2 + x * S * cs;
#pragma GCC unroll 24
      for (std::size_t j = 0; j < J; ++j) {
        // (row 0, row 1) of column j: output u with j = u S + kx takes it with (w0kx, w1kx)
        const __m256i qv =
            _mm256_shuffle_epi8(_mm256_blend_epi32(avx2_bcast8(c0 + cs * j), avx2_bcast8(c1 + cs * j), 0xCC), idx);
#pragma GCC unroll 3
        for (std::size_t kx = 0; kx < 3; ++kx) {
          if (j >= kx && (j - kx) % S == 0 && (j - kx) / S < U) {
            const __m256i wk = kx == 0 ? wq0 : (kx == 1 ? wq1 : wq2);
            acc[(j - kx) / S] = _mm256_add_epi32(acc[(j - kx) / S], _mm256_madd_epi16(qv, wk));
          }
        }
        // (row 2 column j, column j + 1). Stride 1: output u with j = u takes it with (w20, w21),
        // output u with j = u + 1 with (0, w22). Stride 2, even columns only (one more: the
        // padded row has a column past the last window): output u with j = 2u takes it with
        // (w20, w21), output u with j = 2u + 2 with (w22, 0).
        if (S == 1 && j + 1 < J) {
          const __m256i rv = _mm256_shuffle_epi8(
              _mm256_blend_epi32(avx2_bcast8(c2 + cs * j), avx2_bcast8(c2 + cs * (j + 1)), 0xCC), idx);
          if (j < U) acc[j] = _mm256_add_epi32(acc[j], _mm256_madd_epi16(rv, wr0));
          if (j >= 1 && j - 1 < U) acc[j - 1] = _mm256_add_epi32(acc[j - 1], _mm256_madd_epi16(rv, wr1));
        }
        if (S == 2 && j % 2 == 0) {
          const __m256i rv = _mm256_shuffle_epi8(
              _mm256_blend_epi32(avx2_bcast8(c2 + cs * j), avx2_bcast8(c2 + cs * (j + 1)), 0xCC), idx);
          if (j / 2 < U) acc[j / 2] = _mm256_add_epi32(acc[j / 2], _mm256_madd_epi16(rv, wr0));
          if (j >= 2) acc[j / 2 - 1] = _mm256_add_epi32(acc[j / 2 - 1], _mm256_madd_epi16(rv, wr1));
        }
      }
#pragma GCC unroll 2
      for (std::size_t u = 0; u < U; u += 4)
        avx2_store4<E, Clamp>(avx2_rescale(acc[u], q, top), avx2_rescale(acc[u + 1], q, top),
                              avx2_rescale(acc[u + 2], q, top), avx2_rescale(acc[u + 3], q, top), lo, hi,
                              o + (x + u) * C, C, n);
    }
  }
}

/// Copies n bytes (x ^ 0x80 when E is signed).
template <class E>
HWY_INLINE void avx2_copy(std::uint8_t* dst, const E* src, std::size_t n) {
  if constexpr (std::is_signed_v<E>) {
    const __m256i flip = _mm256_set1_epi8(static_cast<char>(0x80));
    std::size_t i = 0;
    for (; i + 32 <= n; i += 32)
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i),
                          _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i)), flip));
    for (; i < n; ++i) dst[i] = static_cast<std::uint8_t>(static_cast<std::uint8_t>(src[i]) ^ 0x80u);
  } else {
    std::memcpy(dst, src, n);
  }
}

/// Writes input row iy of the chunk of channels from c0 (cs of them, the chunk's blocks; channels
/// past C hold the zero point) into `dst`: `width` padded columns of cs bytes, column 0 = input
/// column -pad_left, the input zero point outside the input, x ^ 0x80 when E is signed.
template <class E>
HWY_INLINE void avx2_row(const simd::DepthwiseQ8Args& a, const E* in_b, std::int64_t iy, std::size_t width,
                         std::uint8_t zp, std::size_t c0, std::size_t cs, std::uint8_t* dst) {
  const std::size_t C = a.channels;
  const auto pad = static_cast<std::size_t>(a.pad_left);
  // columns [lo, hi) are inside the input (none when the row is outside it)
  std::size_t lo = 0, hi = 0;
  if (iy >= 0 && iy < static_cast<std::int64_t>(a.in_h)) {
    lo = pad < width ? pad : width;
    hi = a.in_w + pad < width ? a.in_w + pad : width;
    if (hi < lo) hi = lo;
  }
  std::memset(dst, zp, lo * cs);
  std::memset(dst + hi * cs, zp, (width - hi) * cs);
  if (lo == hi) return;
  const E* src = in_b + (static_cast<std::size_t>(iy) * a.in_w + (lo - pad)) * C + c0;
  if (c0 == 0 && cs == C) {  // every channel: one run of bytes
    avx2_copy(dst + lo * cs, src, (hi - lo) * C);
    return;
  }
  const std::size_t n = C - c0 < cs ? C - c0 : cs;
  for (std::size_t j = lo; j < hi; ++j, src += C) {
    avx2_copy(dst + j * cs, src, n);
    if (n < cs) std::memset(dst + j * cs + n, zp, cs - n);
  }
}

/// Prefetches part `part` (of kn) of input row iy's bytes of blocks k0..k0 + kn.
template <class E>
HWY_INLINE void avx2_prefetch_row(const simd::DepthwiseQ8Args& a, const E* in_b, std::int64_t iy, std::size_t k0,
                                  std::size_t kn, std::size_t part) {
  if (iy < 0 || iy >= static_cast<std::int64_t>(a.in_h)) return;
  const std::size_t C = a.channels;
  const char* row = reinterpret_cast<const char*>(in_b + static_cast<std::size_t>(iy) * a.in_w * C);
  if (k0 == 0 && 8 * kn >= C) {  // every channel: the row's bytes, in kn parts
    const std::size_t lines = (a.in_w * C + 63) / 64;
    for (std::size_t l = part * lines / kn; l < (part + 1) * lines / kn; ++l) _mm_prefetch(row + 64 * l, _MM_HINT_T0);
  } else {  // the chunk's bytes of each pixel, the first and last of them
    const std::size_t end = 8 * (k0 + kn) < C ? 8 * (k0 + kn) : C;
    for (std::size_t x = part * a.in_w / kn; x < (part + 1) * a.in_w / kn; ++x) {
      _mm_prefetch(row + x * C + 8 * k0, _MM_HINT_T0);
      _mm_prefetch(row + x * C + end - 1, _MM_HINT_T0);
    }
  }
}

/// The run through row3x3_avx2 (avx2_ok): channel chunks of up to kAvx2MaxBlocks blocks whose
/// three padded rows fit the ring, each chunk's constants computed once; output rows inside,
/// each input row copied once per chunk.
template <class E, class F>
HWY_NOINLINE void run_avx2(const simd::DepthwiseQ8Args& a) {
  const std::size_t C = a.channels, S = static_cast<std::size_t>(a.stride_w), W = a.out_w;
  const std::size_t width = avx2_width(a), blocks = (C + 7) / 8;
  std::size_t chunk = kAvx2RingBytes / (3 * width * 8);
  if (chunk > kAvx2MaxBlocks) chunk = kAvx2MaxBlocks;
  alignas(32) std::uint8_t ring[kAvx2RingBytes];
  Avx2Block kbs[kAvx2MaxBlocks];
  const auto zp = static_cast<std::uint8_t>(static_cast<std::uint8_t>(static_cast<E>(-a.input_offset)) ^
                                            (std::is_signed_v<E> ? 0x80u : 0u));
  const bool clamp = a.act_min > static_cast<std::int32_t>(std::numeric_limits<E>::min()) ||
                     a.act_max < static_cast<std::int32_t>(std::numeric_limits<E>::max());
  using Row = void (*)(const Avx2Block*, std::size_t, const std::uint8_t*, const std::uint8_t*, const std::uint8_t*,
                       std::size_t, E*, std::size_t, std::size_t, std::size_t, std::int32_t, std::int32_t);
  const bool wide = W >= 8;
  const Row row = S == 1 ? (wide ? (clamp ? &row3x3_avx2<1, 8, E, true> : &row3x3_avx2<1, 8, E, false>)
                                 : (clamp ? &row3x3_avx2<1, 4, E, true> : &row3x3_avx2<1, 4, E, false>))
                         : (clamp ? &row3x3_avx2<2, 4, E, true> : &row3x3_avx2<2, 4, E, false>);
  const auto* in = static_cast<const E*>(a.in);
  auto* out = static_cast<E*>(a.out);
  const std::size_t y_end = a.row_end < a.out_h ? a.row_end : a.out_h;
  for (std::size_t k0 = 0; k0 < blocks; k0 += chunk) {
    const std::size_t kn = blocks - k0 < chunk ? blocks - k0 : chunk;
    for (std::size_t k = 0; k < kn; ++k) kbs[k] = avx2_block_at<E, F>(a, k0 + k);
    const std::size_t cs = 8 * kn, slot_bytes = width * cs;
    for (std::size_t b = 0; b < a.batch; ++b) {
      const E* in_b = in + b * a.in_h * a.in_w * C;
      E* out_b = out + b * a.out_h * a.out_w * C;
      std::int64_t held[3] = {std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::min(),
                              std::numeric_limits<std::int64_t>::min()};
      for (std::size_t y = a.row_begin; y < y_end; ++y) {
        const std::int64_t iy0 = static_cast<std::int64_t>(y) * a.stride_h - a.pad_top;
        const std::uint8_t* rows[3];
        for (std::int64_t ky = 0; ky < 3; ++ky) {
          const std::int64_t iy = iy0 + ky;
          const auto slot = static_cast<std::size_t>(((iy % 3) + 3) % 3);
          if (held[slot] != iy) avx2_row(a, in_b, iy, width, zp, 8 * k0, cs, ring + slot * slot_bytes), held[slot] = iy;
          rows[ky] = ring + slot * slot_bytes;
        }
        // One block at a time, and before each a part of the input rows the next output row
        // converts is fetched into the cache (all at once would stall on the misses in flight).
        E* orow = out_b + y * W * C + 8 * k0;
        for (std::size_t k = 0; k < kn; ++k) {
          for (std::int64_t iy = iy0 + 3; iy <= iy0 + static_cast<std::int64_t>(S) + 2; ++iy)
            avx2_prefetch_row(a, in_b, iy, k0, kn, k);
          const std::size_t c = 8 * (k0 + k);
          row(kbs + k, 1, rows[0] + 8 * k, rows[1] + 8 * k, rows[2] + 8 * k, cs, orow + 8 * k, W, C, C - c < 8 ? C - c : 8,
              a.act_min, a.act_max);
        }
      }
    }
  }
}
#endif

template <class E, class F>
HWY_NOINLINE void run(const simd::DepthwiseQ8Args& a) {
  const std::size_t C = a.channels;
  if (a.batch == 0 || a.out_h == 0 || a.out_w == 0 || C == 0) return;
  const auto* in = static_cast<const E*>(a.in);
  auto* out = static_cast<E*>(a.out);
#if !HWY_HAVE_SCALABLE
  const bool fast = a.filter_h == 3 && a.filter_w == 3 && a.dilation_h == 1 && a.dilation_w == 1 &&
                    a.stride_h == a.stride_w && (a.stride_w == 1 || a.stride_w == 2) && a.in_w >= 3 && a.in_h >= 3;
  std::size_t x_lo = 0, x_hi = 0;
  if (fast) {
    const std::int64_t S = a.stride_w;
    std::int64_t lo = (a.pad_left + S - 1) / S;
    std::int64_t hi = (static_cast<std::int64_t>(a.in_w) - 3 + a.pad_left) / S + 1;
    if (hi > static_cast<std::int64_t>(a.out_w)) hi = static_cast<std::int64_t>(a.out_w);
    if (lo > hi) lo = hi;
    x_lo = static_cast<std::size_t>(lo), x_hi = static_cast<std::size_t>(hi);
  }
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  // Whole output rows through row3x3_pairs on three padded input rows (padded_row), kept in a
  // ring (input row iy in slot iy mod 3) so each input row is copied once per image, when the
  // three fit here and the row has a group of 8 outputs; otherwise the interior rows read the
  // input in place and the border pixels take pixel().
  constexpr std::size_t kPaddedBytes = 32768;
  alignas(64) E padded[kPaddedBytes / sizeof(E)];
  const std::int32_t zp = -a.input_offset;
  const bool zp_fits = zp >= std::numeric_limits<E>::min() && zp <= std::numeric_limits<E>::max();
  const std::size_t width = fast ? (a.out_w - 1) * static_cast<std::size_t>(a.stride_w) + 3 : 0;
  const bool use_padded = fast && zp_fits && a.out_w >= 8 && 3 * width * C * sizeof(E) <= kPaddedBytes;
  const E zp_e = static_cast<E>(zp_fits ? zp : 0);
  // The tap-pair routine's per-block constants, once per run instead of once per row call;
  // more blocks than fit here are computed by each row call.
  constexpr std::size_t kMaxPairBlocks = 16;
  PairBlock block_buf[kMaxPairBlocks];
  const PairBlock* blocks = nullptr;
#if HWY_TARGET == HWY_AVX3_DL
  // Padded rows with a rescale row3x3_fast handles take it (rows stored as unsigned bytes).
  const bool use_fast = use_padded && fast_rescale_ok(a);
  const bool clamp = a.act_min > static_cast<std::int32_t>(std::numeric_limits<E>::min()) ||
                     a.act_max < static_cast<std::int32_t>(std::numeric_limits<E>::max());
  FastBlock fast_buf[kMaxPairBlocks];
  const FastBlock* fast_blocks = nullptr;
  if (use_fast && C / 16 <= kMaxPairBlocks) {
    for (std::size_t c = 0; c + 16 <= C; c += 16) fast_buf[c / 16] = fast_block_at<E, F>(a, c);
    fast_blocks = fast_buf;
  }
  auto* upadded = reinterpret_cast<std::uint8_t*>(padded);
  const auto zp_u = static_cast<std::uint8_t>(static_cast<std::uint8_t>(zp_e) ^ (std::is_signed_v<E> ? 0x80u : 0u));
#else
  constexpr bool use_fast = false;
#endif
  if (fast && !use_fast && C / 16 <= kMaxPairBlocks) {
    for (std::size_t c = 0; c + 16 <= C; c += 16) block_buf[c / 16] = pair_block_at<E, F>(a, c);
    blocks = block_buf;
  }
#endif
#endif
  for (std::size_t b = 0; b < a.batch; ++b) {
    const E* in_b = in + b * a.in_h * a.in_w * C;
    E* out_b = out + b * a.out_h * a.out_w * C;
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3 && !HWY_HAVE_SCALABLE
    std::int64_t held[3] = {std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::min(),
                            std::numeric_limits<std::int64_t>::min()};
#endif
    for (std::size_t y = a.row_begin; y < (a.row_end < a.out_h ? a.row_end : a.out_h); ++y) {
      E* orow = out_b + y * a.out_w * C;
#if !HWY_HAVE_SCALABLE
      const std::int64_t iy0 = static_cast<std::int64_t>(y) * a.stride_h - a.pad_top;
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
#if HWY_TARGET == HWY_AVX3_DL
      if (use_fast) {
        const std::uint8_t* rows[3];
        for (std::int64_t ky = 0; ky < 3; ++ky) {
          const std::int64_t iy = iy0 + ky;
          const auto slot = static_cast<std::size_t>(((iy % 3) + 3) % 3);
          std::uint8_t* dst = upadded + slot * width * C;
          if (held[slot] != iy) padded_row_u8(a, in_b, iy, width, zp_u, dst), held[slot] = iy;
          rows[ky] = dst;
        }
        if (a.stride_w == 1) {
          if (clamp)
            row3x3_fast<1, E, F, true>(a, fast_blocks, rows, orow);
          else
            row3x3_fast<1, E, F, false>(a, fast_blocks, rows, orow);
        } else {
          if (clamp)
            row3x3_fast<2, E, F, true>(a, fast_blocks, rows, orow);
          else
            row3x3_fast<2, E, F, false>(a, fast_blocks, rows, orow);
        }
        continue;
      }
#endif
      if (use_padded) {
        const E* rows[3];
        for (std::int64_t ky = 0; ky < 3; ++ky) {
          const std::int64_t iy = iy0 + ky;
          const auto slot = static_cast<std::size_t>(((iy % 3) + 3) % 3);
          E* dst = padded + slot * width * C;
          if (held[slot] != iy) padded_row(a, in_b, iy, width, zp_e, dst), held[slot] = iy;
          rows[ky] = dst;
        }
        if (a.stride_w == 1)
          row3x3_pairs<1, E, F>(a, blocks, rows, orow, 0, a.out_w, -static_cast<std::int64_t>(a.pad_left));
        else
          row3x3_pairs<2, E, F>(a, blocks, rows, orow, 0, a.out_w, -static_cast<std::int64_t>(a.pad_left));
        continue;
      }
#endif
      if (fast && iy0 >= 0 && iy0 + 2 < static_cast<std::int64_t>(a.in_h) && x_lo < x_hi) {
        const E* r0 = in_b + static_cast<std::size_t>(iy0) * a.in_w * C;
        for (std::size_t x = 0; x < x_lo; ++x) pixel<E, F>(a, in_b, y, x, orow + x * C);
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
        const E* rows[3] = {r0, r0 + a.in_w * C, r0 + 2 * a.in_w * C};
        if (a.stride_w == 1) {
          const std::size_t rest = row3x3_pairs<1, E, F>(a, blocks, rows, orow, x_lo, x_hi);
          if (rest < x_hi) row3x3<1, E, F>(a, r0, orow, rest, x_hi);
        } else {
          const std::size_t rest = row3x3_pairs<2, E, F>(a, blocks, rows, orow, x_lo, x_hi);
          if (rest < x_hi) row3x3<2, E, F>(a, r0, orow, rest, x_hi);
        }
#else
        if (a.stride_w == 1)
          row3x3<1, E, F>(a, r0, orow, x_lo, x_hi);
        else
          row3x3<2, E, F>(a, r0, orow, x_lo, x_hi);
#endif
        for (std::size_t x = x_hi; x < a.out_w; ++x) pixel<E, F>(a, in_b, y, x, orow + x * C);
        continue;
      }
#endif
      for (std::size_t x = 0; x < a.out_w; ++x) pixel<E, F>(a, in_b, y, x, orow + x * C);
    }
  }
}

}  // namespace dwq_detail

namespace dwq_detail {
/// run_ring where it applies (AVX3_DL), run_avx2 where it applies (AVX2), otherwise run.
template <class E, class F>
HWY_INLINE void entry(const simd::DepthwiseQ8Args& a) {
#if HWY_TARGET == HWY_AVX3_DL
  if (a.batch != 0 && a.out_h != 0 && a.out_w != 0 && a.channels != 0 && ring_ok<E>(a)) return run_ring<E, F>(a);
#endif
#if HWY_ARCH_X86 && HWY_TARGET == HWY_AVX2
  if (a.batch != 0 && a.out_h != 0 && a.out_w != 0 && a.channels != 0 && avx2_ok<E>(a)) return run_avx2<E, F>(a);
#endif
  run<E, F>(a);
}
}  // namespace dwq_detail

inline void DepthwiseQ8U8(const simd::DepthwiseQ8Args& a) { dwq_detail::entry<std::uint8_t, std::uint8_t>(a); }
inline void DepthwiseQ8U8S8(const simd::DepthwiseQ8Args& a) { dwq_detail::entry<std::uint8_t, std::int8_t>(a); }
inline void DepthwiseQ8S8(const simd::DepthwiseQ8Args& a) { dwq_detail::entry<std::int8_t, std::int8_t>(a); }

/// This target's table of the family.
inline constexpr simd::DepthwiseQ8 kDepthwiseQ8{&DepthwiseQ8U8, &DepthwiseQ8U8S8, &DepthwiseQ8S8};

}  // namespace nnhal::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
