// Per-target body of nnhal's 8-bit NHWC convolution on widened operands: compiled once per
// Highway target by nnhal/simd/conv_q8.hpp (through nnhal/simd/foreach_target-inl.h), which
// declares simd::ConvQ8 and simd::ConvQ8Args first. Not a header to include on its own; it has
// no include guard on purpose.
//
// The indirect GEMM of conv_f32-inl.h with int16 pairs: per input channel pair it loads NV
// vectors of weight pairs and, per output pixel, broadcasts the pixel's pair (one 32-bit load)
// and multiplies-adds pairwise into int32 lanes (x86 pmaddwd, or the fused AVX-512 VNNI
// vpdpwssd where the compiler flags enable it). Both factors lie in [-255, 255], so every
// pairwise product sum is exact; the int32 accumulation wraps as the reference's would
// overflow. Results are bit-exact with the plain kernel: each int32 sum is rescaled as
// quant::multiply_by_quantized_multiplier does (left shift, rounding doubling high multiply
// through 64-bit products with the division truncated toward zero, rounding right shift with
// ties away from zero), per lane with the channel's multiplier and shifts from the panel, then
// offset, clamped and narrowed. On AVX2, when every channel has no left shift, a right shift
// in [1, 31] and a multiplier >= 0 (real multipliers below 1/2, the usual 8-bit layer), the
// rescale is simd/base-inl.h's Avx2Requant instead: one rounding of a 64-bit product from the
// sum biased by 2^31, the same values in about half the instructions. The kernel exists on x86
// targets from SSE4 up (pmaddwd's pair semantics); elsewhere panel_width is 0 and the plain
// kernel runs.
//
// The quad form (see nnhal/simd/conv_q8.hpp) reads bytes instead of int16 pairs: per group of
// four input channels one 32-bit broadcast of four unsigned input bytes, and vpdpbusd against
// four signed weight bytes per lane (twice the multiply-adds of vpdpwssd per instruction). It
// is compiled only where the compiler flags enable AVX-512 VNNI (Highway's AVX3_DL attributes
// name the 256-bit AVX-VNNI only).

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace nnhal::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_ARCH_X86 && HWY_TARGET <= HWY_SSE4
#define NNHAL_CONV_Q8_KERNEL 1
#else
#define NNHAL_CONV_Q8_KERNEL 0
#endif
// The quad form needs AVX-512 VNNI (vpdpbusd), which Highway's AVX3_DL attributes do not name:
// only where the compiler flags enable it.
#if HWY_TARGET == HWY_AVX3_DL && defined(__AVX512VNNI__)
#define NNHAL_CONV_Q8_QUAD 1
#else
#define NNHAL_CONV_Q8_QUAD 0
#endif

namespace conv_q8_detail {

#if NNHAL_CONV_Q8_KERNEL

inline constexpr std::size_t kLanes = HWY_LANES(std::int32_t);
inline constexpr std::size_t kRegisters = kVectorRegisters;  // (simd/base-inl.h)
inline constexpr std::size_t kMaxVectors = kRegisters >= 32 ? 4 : 2;
/// Filters of up to this many taps have their rows found once per tile (5x5).
inline constexpr std::size_t kCachedTaps = 25;

constexpr std::size_t vectors_for(std::size_t out_c) {
  return out_c > 2 * kLanes ? kMaxVectors : (out_c > kLanes ? 2 : 1);
}
constexpr std::size_t rows_for(std::size_t nv) {
  if constexpr (kRegisters >= 32) return nv >= 4 ? 6 : 12;
  return nv >= 2 ? 6 : 12;
}


using D32 = hn::ScalableTag<std::int32_t>;
using V32 = hn::Vec<D32>;
using D16 = hn::Repartition<std::int16_t, D32>;
using V16 = hn::Vec<D16>;

/// acc + the pairwise products of x and w.
HWY_INLINE V32 pair_madd(V32 acc, V16 x, V16 w) {
#if HWY_TARGET == HWY_AVX3_DL && defined(__AVX512VNNI__)
  return V32{_mm512_dpwssd_epi32(acc.raw, x.raw, w.raw)};
#else
  V32 unused = hn::Zero(D32());
  return hn::ReorderWidenMulAccumulate(D32(), x, w, acc, unused);
#endif
}

/// One panel vector's rescaling: Q31 multipliers, shifts, and the rounding mask of the right
/// shift (2^right - 1) with its half.
struct Rescale {
  V32 mult, left, right, mask, half;
};

HWY_INLINE Rescale load_rescale(const std::int32_t* panel, std::size_t nr, std::size_t offset) {
  const D32 d;
  Rescale r;
  r.mult = hn::LoadU(d, panel + nr + offset);
  r.left = hn::LoadU(d, panel + 2 * nr + offset);
  r.right = hn::LoadU(d, panel + 3 * nr + offset);
  const V32 one = hn::Set(d, 1);
  r.mask = (one << r.right) - one;
  r.half = hn::ShiftRight<1>(r.mask);
  return r;
}

/// quant::multiply_by_quantized_multiplier(x, mult, left - right) per lane (mult >= 0):
///  - the rounding doubling high multiply (p + nudge) / 2^31 truncated toward zero, with nudge
///    2^30 for p >= 0 and 1 - 2^30 below, equals floor((p + 2^30) / 2^31) for every p (for
///    p < 0 the truncation is a ceiling: ceil((p + 1 - 2^30) / 2^31) = floor((p + 2^30) /
///    2^31)), one add and one arithmetic shift on 64-bit products of even and odd lanes;
///  - the rounding right shift adds 1 to the floor quotient when the remainder exceeds
///    half = (2^right - 1) >> 1, or half + 1 for a negative value (ties away from zero), as
///    gemmlowp's RoundingDivideByPOT: threshold = half - (y >> 31).
HWY_INLINE V32 rescale(V32 x, const Rescale& r) {
  const D32 d;
  const hn::Repartition<std::int64_t, D32> d64;
  using V64 = hn::Vec<decltype(d64)>;
  x = x << r.left;
  const V64 nudge = hn::Set(d64, std::int64_t{1} << 30);
  const V64 even = hn::ShiftRight<31>(hn::MulEven(x, r.mult) + nudge);
  const V32 x_odd = hn::BitCast(d, hn::ShiftRight<32>(hn::BitCast(d64, x)));
  const V32 m_odd = hn::BitCast(d, hn::ShiftRight<32>(hn::BitCast(d64, r.mult)));
  const V64 odd = hn::ShiftRight<31>(hn::MulEven(x_odd, m_odd) + nudge);
  const V32 y = hn::OddEven(hn::BitCast(d, hn::ShiftLeft<32>(odd)), hn::BitCast(d, even));
  const V32 threshold = r.half - hn::ShiftRight<31>(y);
  return (y >> r.right) - hn::VecFromMask(d, (y & r.mask) > threshold);
}

/// acc + the products of four unsigned bytes of x and four signed bytes of w per lane.
template <bool kQuad>
HWY_INLINE V32 group_madd(V32 acc, V32 x, V32 w) {
#if NNHAL_CONV_Q8_QUAD
  if constexpr (kQuad) return V32{_mm512_dpbusd_epi32(acc.raw, x.raw, w.raw)};
#endif
  const D16 d16;
  return pair_madd(acc, hn::BitCast(d16, x), hn::BitCast(d16, w));
}

/// The bytes of a tap's input row: pixel (iy, ix) of `image`, or the zero row when outside.
HWY_INLINE const std::uint8_t* tap_row(const simd::ConvQ8Args& a, const std::uint8_t* image, const std::uint8_t* zeros,
                                       std::size_t row_bytes, std::int64_t iy, std::int64_t ix) {
  if (iy < 0 || ix < 0 || iy >= static_cast<std::int64_t>(a.in_h) || ix >= static_cast<std::int64_t>(a.in_w))
    return zeros;
  return image + (static_cast<std::size_t>(iy) * a.in_w + static_cast<std::size_t>(ix)) * row_bytes;
}

#if HWY_TARGET == HWY_AVX3_DL
// A cheaper rescale for 4-vector panels (64 output channels) whose channels all have no left
// shift, a right shift e in [1, 22] and |output offset| < 256 (the usual 8-bit layer): the
// same value as rescale() + offset, as one rounding of the 64-bit product (as
// simd/depthwise_q8-inl.h's Requant64 derives it): floor((x m + 2^30 + 2^(30+e) + offset
// 2^(31+e) - 2^31 [x m < -2^30]) / 2^(31+e)); the odd lanes' sums are shifted by e - 1 so their
// 32-bit results land in the upper halves, and one blend joins the halves. The four vectors of
// a pixel are then narrowed together by saturating packs (the clamp to the 8-bit range), the
// activation clamp done on the packed bytes, and one dword permutation restores the channel
// order for a single 64-byte store.

/// One panel vector's constants of the cheaper rescale.
struct FastRescale {
  __m512i m, m_odd, add_even, add_odd, sh_even, sh_odd;
};

/// Whether every panel channel's rescale suits FastRescale.
HWY_INLINE bool fast_rescale_ok(const simd::ConvQ8Args& a) {
  if (a.output_offset <= -256 || a.output_offset >= 256) return false;
  const std::size_t NR = a.panel, panels = (a.out_c + NR - 1) / NR;
  const std::size_t row_bytes = a.quad ? a.in_c4 : a.in_c2 * sizeof(std::int16_t);
  const std::size_t K = a.filter_h * a.filter_w * (row_bytes / 4);
  for (std::size_t j = 0; j < panels; ++j) {
    const std::int32_t* panel = a.packed + j * (K + simd::kConvQ8PanelHeader) * NR;
    const std::size_t valid = a.out_c - j * NR < NR ? a.out_c - j * NR : NR;
    for (std::size_t i = 0; i < valid; ++i)
      if (panel[2 * NR + i] != 0 || panel[3 * NR + i] < 1 || panel[3 * NR + i] > 22) return false;
  }
  return true;
}

HWY_INLINE FastRescale fast_rescale_at(const std::int32_t* panel, std::size_t nr, std::size_t offset,
                                       std::int32_t output_offset) {
  alignas(64) std::int64_t add[16], sh[16];
  for (std::size_t i = 0; i < 16; ++i) {
    // (channels past out_c in the last panel are not stored: any shift in [1, 22] does)
    const std::int32_t r = panel[3 * nr + offset + i], e = r < 1 ? 1 : (r > 22 ? 22 : r);
    const std::size_t k = (i % 2) * 8 + i / 2;  // even channels in the first half, odd ones in the second
    add[k] = (std::int64_t{1} << 30) + (std::int64_t{1} << (30 + e)) +
             static_cast<std::int64_t>(output_offset) * (std::int64_t{1} << (31 + e));
    sh[k] = i % 2 == 0 ? 31 + e : e - 1;
  }
  FastRescale f;
  f.m = _mm512_loadu_si512(panel + nr + offset);
  f.m_odd = _mm512_srli_epi64(f.m, 32);
  f.add_even = _mm512_load_si512(add), f.add_odd = _mm512_load_si512(add + 8);
  f.sh_even = _mm512_load_si512(sh), f.sh_odd = _mm512_load_si512(sh + 8);
  return f;
}

HWY_INLINE __m512i fast_rescale(__m512i acc, const FastRescale& f) {
  const __m512i limit = _mm512_set1_epi64(-(std::int64_t{1} << 30)), neg = _mm512_set1_epi64(std::int64_t{1} << 31);
  const __m512i pe = _mm512_mul_epi32(acc, f.m);
  const __m512i po = _mm512_mul_epi32(_mm512_srli_epi64(acc, 32), f.m_odd);
  __m512i te = _mm512_add_epi64(pe, f.add_even);
  __m512i to = _mm512_add_epi64(po, f.add_odd);
  te = _mm512_mask_sub_epi64(te, _mm512_cmplt_epi64_mask(pe, limit), te, neg);
  to = _mm512_mask_sub_epi64(to, _mm512_cmplt_epi64_mask(po, limit), to, neg);
  te = _mm512_srav_epi64(te, f.sh_even);
  to = _mm512_srav_epi64(to, f.sh_odd);
  return _mm512_mask_blend_epi32(0xAAAA, te, to);
}

/// The 64 bytes of four rescaled vectors (channels in order), saturated to 8 bits and clamped
/// to [lo, hi] (bytes).
template <bool kSigned>
HWY_INLINE __m512i fast_narrow4(__m512i r0, __m512i r1, __m512i r2, __m512i r3, __m512i lo, __m512i hi) {
  const __m512i w01 = _mm512_packs_epi32(r0, r1), w23 = _mm512_packs_epi32(r2, r3);
  __m512i b;
  if constexpr (kSigned)
    b = _mm512_min_epi8(_mm512_max_epi8(_mm512_packs_epi16(w01, w23), lo), hi);
  else
    b = _mm512_min_epu8(_mm512_max_epu8(_mm512_packus_epi16(w01, w23), lo), hi);
  // 128-bit lane L holds channels 4L..4L+3 of each vector
  const __m512i order = _mm512_set_epi32(15, 11, 7, 3, 14, 10, 6, 2, 13, 9, 5, 1, 12, 8, 4, 0);
  return _mm512_permutexvar_epi32(order, b);
}
#endif

/// The output stage's bounds: the activation range as int32 lanes and, on AVX2, as bytes.
struct Narrow {
  V32 lo, hi;
#if HWY_TARGET == HWY_AVX2
  __m128i lo8, hi8;
#endif
  bool signed_output;
};

HWY_INLINE Narrow make_narrow(const simd::ConvQ8Args& a) {
  const D32 d;
  Narrow n;
  n.lo = hn::Set(d, a.act_min), n.hi = hn::Set(d, a.act_max);
  n.signed_output = a.signed_output;
#if HWY_TARGET == HWY_AVX2
  // (the range lies in the output type's; clamped to it all the same, as the saturating
  // narrowing before the byte clamp would)
  const std::int32_t t_lo = a.signed_output ? -128 : 0, t_hi = a.signed_output ? 127 : 255;
  const auto byte = [&](std::int32_t v) {
    return static_cast<char>(static_cast<std::uint8_t>(v < t_lo ? t_lo : (v > t_hi ? t_hi : v)));
  };
  n.lo8 = _mm_set1_epi8(byte(a.act_min)), n.hi8 = _mm_set1_epi8(byte(a.act_max));
#endif
  return n;
}

/// Clamps one pixel's NV rescaled vectors (output offset included) to the activation range,
/// narrows them to bytes and stores the `valid` (<= NV lanes) channels at o: a full panel in
/// place, a partial one through a stack copy.
template <std::size_t NV>
HWY_INLINE void store_pixel(const V32 (&y)[NV], const Narrow& n, std::uint8_t* o, std::size_t valid) {
  constexpr std::size_t N = kLanes, NR = NV * N;
  HWY_ALIGN std::uint8_t bytes[NR];
  std::uint8_t* dst = valid == NR ? o : bytes;
#if HWY_TARGET == HWY_AVX2
  // Two vectors at a time: saturating packs to int16 then to bytes (the clamp to the type's
  // range, which keeps the order of values, so the activation clamp can follow on the bytes),
  // one dword permutation to put the 16 channels in order, the clamp, one 16-byte store.
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
#pragma GCC unroll 16
  for (std::size_t v = 0; v < NV; v += 2) {
    const __m256i w = _mm256_packs_epi32(y[v].raw, y[v + 1 < NV ? v + 1 : v].raw);
    const __m256i b = n.signed_output ? _mm256_packs_epi16(w, w) : _mm256_packus_epi16(w, w);
    __m128i x = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(b, order));
    x = n.signed_output ? _mm_min_epi8(_mm_max_epi8(x, n.lo8), n.hi8) : _mm_min_epu8(_mm_max_epu8(x, n.lo8), n.hi8);
    if (v + 1 < NV)
      _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + v * N), x);
    else
      _mm_storel_epi64(reinterpret_cast<__m128i*>(dst + v * N), x);
  }
#else
  const hn::Rebind<std::uint8_t, D32> du8;
  const hn::Rebind<std::int8_t, D32> di8;
#pragma GCC unroll 16
  for (std::size_t v = 0; v < NV; ++v) {
    const V32 r = hn::Min(hn::Max(y[v], n.lo), n.hi);
    if (n.signed_output)
      hn::StoreU(hn::BitCast(du8, hn::DemoteTo(di8, r)), du8, dst + v * N);
    else
      hn::StoreU(hn::DemoteTo(du8, r), du8, dst + v * N);
  }
#endif
  if (valid != NR) std::memcpy(o, bytes, valid);
}

/// Output pixels [p0, p0 + rows) of one image (rows <= MR), every panel.
/// Pixel rows are `row_bytes` bytes: in_c2 int16 (pair form) or in_c4 bytes (quad form), read
/// 32 bits at a time.
/// `fast`, when not null (AVX3_DL, NV = 4), holds every panel's FastRescale constants.
/// kPointwise: a 1x1 filter at stride 1 without padding (the image is the GEMM's left matrix:
/// pixel p's row is row p of the image, with no window to find).
/// kFlip (quad form): the input bytes' top bits are flipped as they are read (int8 in place).
template <std::size_t MR, std::size_t NV, bool kQuad, bool kPointwise, bool kFlip = false>
HWY_NOINLINE void tile(const simd::ConvQ8Args& a, const std::uint8_t* image, const std::uint8_t* zeros,
                       std::size_t row_bytes, std::uint8_t* out_image, std::size_t p0, std::size_t rows,
                       const void* fast) {
  (void)fast;
  const D32 d;
  constexpr std::size_t N = kLanes, NR = NV * N;
  const std::size_t fh = kPointwise ? 1 : a.filter_h, fw = kPointwise ? 1 : a.filter_w;
  const std::size_t pairs = row_bytes / 4, K2 = fh * fw * pairs;
  const std::size_t panels = (a.out_c + NR - 1) / NR;
  // The rows of a pointwise tile's pixels (the last pixel's again past `rows`).
  const std::uint8_t* rows_pw[MR];
  if constexpr (kPointwise)
    for (std::size_t m = 0; m < MR; ++m) rows_pw[m] = image + (p0 + (m < rows ? m : rows - 1)) * row_bytes;
  // Otherwise, the window origins of pixels p0.. (the last pixel's again past `rows`), stepped
  // along the output rows from one division.
  constexpr std::size_t kWindows = kPointwise ? 0 : MR;
  std::int64_t iy0[MR], ix0[MR];
  std::size_t py = kPointwise ? 0 : p0 / a.out_w, px = kPointwise ? 0 : p0 % a.out_w;
  for (std::size_t m = 0; m < kWindows; ++m) {
    iy0[m] = static_cast<std::int64_t>(py) * a.stride_h - a.pad_top;
    ix0[m] = static_cast<std::int64_t>(px) * a.stride_w - a.pad_left;
    if (m + 1 < rows && ++px == a.out_w) px = 0, ++py;
  }
  // A pixel whose window lies inside the image finds a tap's row at a fixed distance from its
  // first tap's; the others check each tap against the image's bounds (tap_row).
  const std::int64_t span_h = (static_cast<std::int64_t>(a.filter_h) - 1) * a.dilation_h;
  const std::int64_t span_w = (static_cast<std::int64_t>(a.filter_w) - 1) * a.dilation_w;
  const std::uint8_t* first[MR];  // the first tap's row, or null when the window leaves the image
  // every pixel's window inside the image (a 1x1 filter keeps the cached rows: measured faster)
  bool inside = !kPointwise && a.filter_h * a.filter_w > 1;
  for (std::size_t m = 0; m < kWindows; ++m) {
    first[m] = iy0[m] >= 0 && ix0[m] >= 0 && iy0[m] + span_h < static_cast<std::int64_t>(a.in_h) &&
                       ix0[m] + span_w < static_cast<std::int64_t>(a.in_w)
                   ? tap_row(a, image, zeros, row_bytes, iy0[m], ix0[m])
                   : nullptr;
    inside = inside && first[m] != nullptr;
  }
  // Tap (fy, fx)'s row, in bytes from the first tap's, for a window inside the image.
  const auto tap_step = [&](std::size_t fy, std::size_t fx) {
    return (fy * static_cast<std::size_t>(a.dilation_h) * a.in_w + fx * static_cast<std::size_t>(a.dilation_w)) *
           row_bytes;
  };
  // Each tap's input rows for the tile's pixels, found once for every panel (filters of up to
  // kCachedTaps taps; larger ones find them per panel).
  const auto tap_rows = [&](std::size_t fy, std::size_t fx, const std::uint8_t* (&src)[MR]) {
    const std::int64_t dy = static_cast<std::int64_t>(fy) * a.dilation_h;
    const std::int64_t dx = static_cast<std::int64_t>(fx) * a.dilation_w;
    const std::size_t step = tap_step(fy, fx);
#pragma GCC unroll 16
    for (std::size_t m = 0; m < MR; ++m)
      src[m] = first[m] != nullptr ? first[m] + step : tap_row(a, image, zeros, row_bytes, iy0[m] + dy, ix0[m] + dx);
  };
  const bool cached = !kPointwise && !inside && a.filter_h * a.filter_w <= kCachedTaps;
  const std::uint8_t* cache[kCachedTaps][MR];
  if (cached)
    for (std::size_t fy = 0, t = 0; fy < a.filter_h; ++fy)
      for (std::size_t fx = 0; fx < a.filter_w; ++fx, ++t) tap_rows(fy, fx, cache[t]);
  const Narrow narrow = make_narrow(a);
  const V32 flip = hn::Set(d, static_cast<std::int32_t>(0x80808080u));
  for (std::size_t j = 0; j < panels; ++j) {
    const std::int32_t* panel = a.packed + j * (K2 + simd::kConvQ8PanelHeader) * NR;
    V32 acc[MR * NV];
#pragma GCC unroll 16
    for (std::size_t v = 0; v < NV; ++v) {
      const V32 bv = hn::LoadU(d, panel + v * N);
#pragma GCC unroll 16
      for (std::size_t m = 0; m < MR; ++m) acc[m * NV + v] = bv;
    }
    const std::int32_t* wp = panel + simd::kConvQ8PanelHeader * NR;
    for (std::size_t fy = 0, t = 0; fy < fh; ++fy) {
      for (std::size_t fx = 0; fx < fw; ++fx, ++t) {
        const std::uint8_t* src[MR];
        if constexpr (kPointwise) {
#pragma GCC unroll 16
          for (std::size_t m = 0; m < MR; ++m) src[m] = rows_pw[m];
        } else if (inside) {
          const std::size_t step = tap_step(fy, fx);
#pragma GCC unroll 16
          for (std::size_t m = 0; m < MR; ++m) src[m] = first[m] + step;
        } else if (cached) {
#pragma GCC unroll 16
          for (std::size_t m = 0; m < MR; ++m) src[m] = cache[t][m];
        } else {
          tap_rows(fy, fx, src);
        }
        // two channel pairs (or groups of four) a trip: 0.93-0.94 of the time on 8-bit
        // 56x56x64 convolutions on AVX2
#pragma GCC unroll 2
        for (std::size_t i = 0; i < pairs; ++i) {
          // (no KeepInRegister here: g++ 12 and clang 14 keep the loads out of the
          // multiply-adds anyway, and with it g++ stored the weights to the stack every trip in
          // the pointwise tile)
          V32 wv[NV];
#pragma GCC unroll 16
          for (std::size_t v = 0; v < NV; ++v) wv[v] = hn::LoadU(d, wp + v * N);
#pragma GCC unroll 16
          for (std::size_t m = 0; m < MR; ++m) {
            std::int32_t pair;
            std::memcpy(&pair, src[m] + 4 * i, sizeof pair);
            V32 xb = hn::Set(d, pair);
            if constexpr (kFlip) xb = hn::Xor(xb, flip);
#pragma GCC unroll 16
            for (std::size_t v = 0; v < NV; ++v) acc[m * NV + v] = group_madd<kQuad>(acc[m * NV + v], xb, wv[v]);
          }
          wp += NR;
        }
      }
    }
    // Rescale, offset, clamp, narrow, store.
    const std::size_t oc0 = j * NR;
    const std::size_t valid = a.out_c - oc0 < NR ? a.out_c - oc0 : NR;
#if HWY_TARGET == HWY_AVX3_DL
    if constexpr (NV == 4) {
      if (fast != nullptr) {
        const FastRescale* fr = static_cast<const FastRescale*>(fast) + j * 4;
        // (by reference: the constants are read from `fast` as memory operands, not copied)
        const FastRescale &f0 = fr[0], &f1 = fr[1], &f2 = fr[2], &f3 = fr[3];
        const __m512i lo = _mm512_set1_epi8(static_cast<char>(a.act_min)), hi = _mm512_set1_epi8(static_cast<char>(a.act_max));
#pragma GCC unroll 16
        for (std::size_t m = 0; m < MR; ++m) {  // constant indices into acc: it stays in registers
          if (m >= rows) break;
          const __m512i r0 = fast_rescale(acc[m * NV].raw, f0), r1 = fast_rescale(acc[m * NV + 1].raw, f1);
          const __m512i r2 = fast_rescale(acc[m * NV + 2].raw, f2), r3 = fast_rescale(acc[m * NV + 3].raw, f3);
          const __m512i b = a.signed_output ? fast_narrow4<true>(r0, r1, r2, r3, lo, hi) : fast_narrow4<false>(r0, r1, r2, r3, lo, hi);
          std::uint8_t* o = out_image + (p0 + m) * a.out_c + oc0;
          if (valid == NR)
            _mm512_storeu_si512(o, b);
          else
            _mm512_mask_storeu_epi8(o, (__mmask64{1} << valid) - 1, b);  // valid < 64
        }
        continue;
      }
    }
#endif
    const V32 offset = hn::Set(d, a.output_offset);
#if HWY_TARGET == HWY_AVX2
    if (fast != nullptr) {
      // Avx2Requant (simd/base-inl.h) from the biased sums acc + 2^31; its result holds the
      // output offset.
      const Avx2Requant* q = static_cast<const Avx2Requant*>(fast) + j * NV;
      const __m256i top = _mm256_set1_epi64x(0x80000000ll), bias = _mm256_set1_epi32(INT32_MIN);
#pragma GCC unroll 16
      for (std::size_t m = 0; m < MR; ++m) {  // constant indices into acc: it stays in registers
        if (m >= rows) break;
        V32 y[NV];
#pragma GCC unroll 16
        for (std::size_t v = 0; v < NV; ++v)
          y[v] = V32{Avx2RequantApply(_mm256_xor_si256(acc[m * NV + v].raw, bias), q[v], top)};
        store_pixel<NV>(y, narrow, out_image + (p0 + m) * a.out_c + oc0, valid);
      }
      continue;
    }
#endif
    Rescale rs[NV];
#pragma GCC unroll 16
    for (std::size_t v = 0; v < NV; ++v) rs[v] = load_rescale(panel, NR, v * N);
#pragma GCC unroll 16
    for (std::size_t m = 0; m < MR; ++m) {  // constant indices into acc: it stays in registers
      if (m >= rows) break;
      V32 y[NV];
#pragma GCC unroll 16
      for (std::size_t v = 0; v < NV; ++v) y[v] = rescale(acc[m * NV + v], rs[v]) + offset;
      store_pixel<NV>(y, narrow, out_image + (p0 + m) * a.out_c + oc0, valid);
    }
  }
}

template <std::size_t NV, bool kQuad, bool kFlip = false>
HWY_INLINE void run_form(const simd::ConvQ8Args& a) {
  constexpr std::size_t MR = rows_for(NV);
  const std::size_t pixels = a.out_h * a.out_w;
  const std::size_t row_bytes = kQuad ? a.in_c4 : a.in_c2 * sizeof(std::int16_t);
  const auto* base = kQuad ? a.in_u8 : reinterpret_cast<const std::uint8_t*>(a.in);
  const std::uint8_t* zeros =
      kQuad && a.zero_row_u8 != nullptr ? a.zero_row_u8 : base + a.batch * a.in_h * a.in_w * row_bytes;
  const void* fast = nullptr;
#if HWY_TARGET == HWY_AVX3_DL
  // The FastRescale constants of up to 16 panels (1024 output channels), when they apply.
  constexpr std::size_t kMaxFastPanels = 16;
  FastRescale fast_buf[NV == 4 ? 4 * kMaxFastPanels : 1];
  const std::size_t panels = (a.out_c + a.panel - 1) / a.panel;
  if (NV == 4 && panels <= kMaxFastPanels && fast_rescale_ok(a)) {
    const std::size_t K = a.filter_h * a.filter_w * (row_bytes / 4);
    for (std::size_t j = 0; j < panels; ++j) {
      const std::int32_t* panel = a.packed + j * (K + simd::kConvQ8PanelHeader) * a.panel;
      for (std::size_t v = 0; v < 4; ++v)
        fast_buf[j * 4 + v] = fast_rescale_at(panel, a.panel, v * 16, a.output_offset);
    }
    fast = fast_buf;
  }
#elif HWY_TARGET == HWY_AVX2
  // The Avx2Requant constants of up to 64 panels' vectors (1024 output channels with 16-channel
  // panels), when every channel's rescale fits.
  constexpr std::size_t kMaxFastVectors = 128;
  Avx2Requant fast_buf[kMaxFastVectors];
  const std::size_t vectors = (a.out_c + kLanes - 1) / kLanes;
  if (vectors <= kMaxFastVectors) {
    const std::size_t NR = a.panel, panels = (a.out_c + NR - 1) / NR;
    const std::size_t K = a.filter_h * a.filter_w * (row_bytes / 4);
    bool fits = true;
    for (std::size_t j = 0; j < panels && fits; ++j) {
      const std::int32_t* panel = a.packed + j * (K + simd::kConvQ8PanelHeader) * NR;
      const std::size_t valid = a.out_c - j * NR < NR ? a.out_c - j * NR : NR;
      for (std::size_t i = 0; i < valid && fits; ++i) fits = Avx2RequantFits(panel[NR + i], panel[2 * NR + i], panel[3 * NR + i]);
      for (std::size_t v = 0; v * kLanes < NR && fits; ++v) {
        const std::size_t n = valid > v * kLanes ? (valid - v * kLanes < kLanes ? valid - v * kLanes : kLanes) : 0;
        fast_buf[j * (NR / kLanes) + v] = Avx2RequantAt(panel + NR + v * kLanes, panel + 3 * NR + v * kLanes, n, a.output_offset);
      }
    }
    if (fits) fast = fast_buf;
  }
#endif
  // A 1x1 filter at stride 1 without padding reads pixel p's window from row p of the image.
  const bool pointwise = a.filter_h == 1 && a.filter_w == 1 && a.stride_h == 1 && a.stride_w == 1 &&
                         a.pad_top == 0 && a.pad_left == 0 && a.in_h == a.out_h && a.in_w == a.out_w;
  for (std::size_t b = 0; b < a.batch; ++b) {
    const std::uint8_t* image = base + b * a.in_h * a.in_w * row_bytes;
    std::uint8_t* out_image = a.out + b * pixels * a.out_c;
    const std::size_t end = a.pixel_end < pixels ? a.pixel_end : pixels;
    const auto tiles = [&](auto kPointwise) {
      for (std::size_t p0 = a.pixel_begin; p0 < end; p0 += MR)
        tile<MR, NV, kQuad, decltype(kPointwise)::value, kFlip>(a, image, zeros, row_bytes, out_image, p0,
                                                               end - p0 < MR ? end - p0 : MR, fast);
    };
    if (pointwise)
      tiles(std::true_type{});
    else
      tiles(std::false_type{});
  }
}

template <std::size_t NV>
HWY_INLINE void run_vectors(const simd::ConvQ8Args& a) {
#if NNHAL_CONV_Q8_QUAD
  if (a.quad) return a.quad_flip ? run_form<NV, true, true>(a) : run_form<NV, true>(a);
#endif
  run_form<NV, false>(a);
}

#endif  // NNHAL_CONV_Q8_KERNEL

}  // namespace conv_q8_detail

/// Target-specific ConvQ8::panel_width (0: no kernel on this target).
inline std::size_t ConvQ8PanelWidth(std::size_t out_c) {
#if NNHAL_CONV_Q8_KERNEL
  return conv_q8_detail::vectors_for(out_c) * conv_q8_detail::kLanes;
#else
  (void)out_c;
  return 0;
#endif
}

/// Target-specific ConvQ8::run.
inline void ConvQ8Run(const simd::ConvQ8Args& a) {
#if NNHAL_CONV_Q8_KERNEL
  namespace cd = conv_q8_detail;
  if (a.batch == 0 || a.out_h == 0 || a.out_w == 0 || a.out_c == 0) return;
  const std::size_t nv = a.panel / cd::kLanes;
  if (nv == 1)
    cd::run_vectors<1>(a);
  else if (nv == 2)
    cd::run_vectors<2>(a);
  else if (nv == 4 && cd::kMaxVectors >= 4)
    cd::run_vectors<cd::kMaxVectors>(a);
#else
  (void)a;
#endif
}

/// Target-specific ConvQ8::has_quad.
inline bool ConvQ8HasQuad() { return NNHAL_CONV_Q8_QUAD != 0; }

#undef NNHAL_CONV_Q8_KERNEL
#undef NNHAL_CONV_Q8_QUAD

/// Target-specific ConvQ8::widen_u8 / widen_i8.
template <class X>
HWY_NOINLINE void ConvQ8Widen(const X* in, std::int32_t zero, std::size_t n, std::int16_t* out) {
  const hn::ScalableTag<std::int16_t> d16;
  const hn::Rebind<X, decltype(d16)> d8;
  const std::size_t N = hn::Lanes(d16);
  const auto z = hn::Set(d16, static_cast<std::int16_t>(zero));
  std::size_t i = 0;
  for (; i + N <= n; i += N) hn::StoreU(hn::Sub(hn::PromoteTo(d16, hn::LoadU(d8, in + i)), z), d16, out + i);
  for (; i < n; ++i) out[i] = static_cast<std::int16_t>(std::int32_t{in[i]} - zero);
}
inline void ConvQ8WidenU8(const std::uint8_t* in, std::int32_t zero, std::size_t n, std::int16_t* out) {
  ConvQ8Widen(in, zero, n, out);
}
inline void ConvQ8WidenI8(const std::int8_t* in, std::int32_t zero, std::size_t n, std::int16_t* out) {
  ConvQ8Widen(in, zero, n, out);
}

/// This target's table of the family.
inline constexpr simd::ConvQ8 kConvQ8{&ConvQ8PanelWidth, &ConvQ8Run, &ConvQ8WidenU8, &ConvQ8WidenI8, &ConvQ8HasQuad};

}  // namespace nnhal::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
