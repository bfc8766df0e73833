// Per-target body of nnhal's FLOAT32 DEPTHWISE_CONV_2D kernel (NHWC, depth multiplier 1):
// compiled once per Highway target by nnhal/simd/depthwise_f32.hpp (through
// nnhal/simd/foreach_target-inl.h), which declares simd::DepthwiseF32 first. Not a header to
// include on its own; it has no include guard on purpose.
//
// In NHWC the channels of a pixel are contiguous in the input, the filter ([fh, fw, C]) and the
// output, and channel c of the output only reads channel c: one vector of N channels is one
// independent lane-wise computation, acc = bias; acc = fma(x, w, acc) per tap; clamp.
//
//  - Generic path (any filter, stride, dilation, and the border pixels): per output pixel, the
//    taps that fall inside the input are found once (no per-tap bounds test), then pairs of
//    channel vectors run over them with two partial sums each (four independent chains).
//  - 3x3, dilation 1, stride 1 or 2 (depthwise layers of MobileNet-like networks): the output
//    pixels whose whole window is inside the input take a row routine that holds the 9 filter
//    vectors and the bias of one channel vector in registers and computes U neighbouring output
//    pixels at once with the 3 input rows unrolled, so U independent fused multiply-add chains
//    hide the FMA latency (U = 8 with 32 vector registers, 4 with 16); each input column the U
//    windows share is loaded once (stride 1: 10 loads per row for 8 outputs instead of 24).
//  - AVX2 (16 registers), up to 204 channels with stride 1 and 120 with stride 2, and AVX-512,
//    up to 546 and 321 (x8_fits_l1): the interior outputs take row3x3_x8, groups of 8 outputs
//    of one channel vector with only one window row's 3 filter vectors in registers (on AVX2, 8
//    chains instead of 4: with 4, the 9-deep chains of FMAs of latency 4 leave the FMA units
//    idle half the time); a rest of up to 4 outputs, and rows of fewer than 8, take row3x3.
//    Its loads and stores address the columns from a few base registers with the column stride
//    scaled (load_at): written as plain pointer arithmetic with a run-time channel count, g++
//    keeps one pointer per column, spills them and reloads them in the inner loop (on AVX2 a
//    row took about 1.6 times as long; on AVX-512, row3x3 takes 1.2 to 1.25 times as long as
//    row3x3_x8 on 32 and 64 channels). With more channels the columns of a group share a few
//    L1 sets and evict each other: there the groups of row3x3 are faster.
//  - Channels past the last full vector are computed by a scalar loop with the same order.
//
// Accuracy: the scalar reference (nnhal::kernels::depthwise_conv_2d) sums the products in tap
// order from 0, then adds the bias; this kernel starts from the bias and fuses each multiply
// with its add. Both are a sum of (taps + 1) float terms in some order, so both lie within
// (taps + 1) * 2^-24 * (sum |x * w| + |bias|) of the exact value, to first order
// (tests/simd/depthwise_f32.cpp checks that bound on every compiled target).

#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace nnhal::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

namespace dw_detail {

#if (HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3) || HWY_ARCH_ARM_A64 || HWY_ARCH_RVV
inline constexpr std::size_t kPixelsPerStep = 8;  // 9 filter + 8 accumulators + 1 input of 32 registers
#else
inline constexpr std::size_t kPixelsPerStep = 4;  // 9 + 4 + 1 of 16
#endif

// row3x3_x8 (below) exists on AVX2 and the AVX-512 targets, with g++ or clang (its loads and
// stores are inline assembly).
#if (HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL) && \
    (HWY_COMPILER_GCC || HWY_COMPILER_CLANG)
#define NNHAL_DW_X8 1
#else
#define NNHAL_DW_X8 0
#endif

/// Pins a vector to a register: g++'s tuning for some CPUs (-mtune=znver*) folds a load into
/// every fused multiply-add that uses it, which would undo the column reuse of row3x3 (3 loads
/// per column instead of 1). An empty asm taking the vector in a register stops the folding.
template <class V>
HWY_INLINE void keep_in_register(V& v) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_SSSE3 && (HWY_COMPILER_GCC || HWY_COMPILER_CLANG)
  asm("" : "+v"(v.raw));
#else
  (void)v;
#endif
}

/// Taps k in [lo, hi) of one axis with 0 <= origin + k * dilation < size.
HWY_INLINE void tap_range(std::int64_t origin, std::int64_t dilation, std::size_t filter, std::size_t size,
                          std::size_t& lo, std::size_t& hi) {
  const auto n = static_cast<std::int64_t>(size), f = static_cast<std::int64_t>(filter);
  std::int64_t a = origin < 0 ? (-origin + dilation - 1) / dilation : 0;
  std::int64_t b = n - 1 - origin < 0 ? 0 : (n - 1 - origin) / dilation + 1;
  if (b > f) b = f;
  if (a > b) a = b;
  lo = static_cast<std::size_t>(a), hi = static_cast<std::size_t>(b);
}

HWY_INLINE float clamp_scalar(float r, float lo, float hi) { return r < lo ? lo : (r > hi ? hi : r); }

/// One output pixel (b, oy, ox), every channel, taps inside the input only.
HWY_INLINE void pixel(const simd::DepthwiseF32Args& a, const float* in_b, std::size_t oy, std::size_t ox,
                      float* o) {
  const hn::ScalableTag<float> d;
  const std::size_t N = hn::Lanes(d), C = a.channels;
  const std::int64_t iy0 = static_cast<std::int64_t>(oy) * a.stride_h - a.pad_top;
  const std::int64_t ix0 = static_cast<std::int64_t>(ox) * a.stride_w - a.pad_left;
  std::size_t ky0, ky1, kx0, kx1;
  tap_range(iy0, a.dilation_h, a.filter_h, a.in_h, ky0, ky1);
  tap_range(ix0, a.dilation_w, a.filter_w, a.in_w, kx0, kx1);
  const auto lo = hn::Set(d, a.act_min), hi = hn::Set(d, a.act_max);
  // Two channel vectors at a time, each with two partial sums (taps alternate between them):
  // four independent fused multiply-add chains instead of one long one.
  std::size_t c = 0;
  for (; c + 2 * N <= C; c += 2 * N) {
    auto a0 = hn::LoadU(d, a.bias + c), b0 = hn::LoadU(d, a.bias + c + N);
    auto a1 = hn::Zero(d), b1 = hn::Zero(d);
    bool odd = false;
    for (std::size_t ky = ky0; ky < ky1; ++ky) {
      const auto iy = static_cast<std::size_t>(iy0 + static_cast<std::int64_t>(ky) * a.dilation_h);
      const float* row = in_b + iy * a.in_w * C + c;
      const float* frow = a.filter + ky * a.filter_w * C + c;
      for (std::size_t kx = kx0; kx < kx1; ++kx, odd = !odd) {
        const auto ix = static_cast<std::size_t>(ix0 + static_cast<std::int64_t>(kx) * a.dilation_w);
        const auto xa = hn::LoadU(d, row + ix * C), xb = hn::LoadU(d, row + ix * C + N);
        const auto fa = hn::LoadU(d, frow + kx * C), fb = hn::LoadU(d, frow + kx * C + N);
        if (odd) {
          a1 = hn::MulAdd(xa, fa, a1), b1 = hn::MulAdd(xb, fb, b1);
        } else {
          a0 = hn::MulAdd(xa, fa, a0), b0 = hn::MulAdd(xb, fb, b0);
        }
      }
    }
    hn::StoreU(ReferenceClamp(hn::Add(a0, a1), lo, hi), d, o + c);
    hn::StoreU(ReferenceClamp(hn::Add(b0, b1), lo, hi), d, o + c + N);
  }
  for (; c + N <= C; c += N) {
    auto acc = hn::LoadU(d, a.bias + c);
    for (std::size_t ky = ky0; ky < ky1; ++ky) {
      const auto iy = static_cast<std::size_t>(iy0 + static_cast<std::int64_t>(ky) * a.dilation_h);
      const float* row = in_b + iy * a.in_w * C + c;
      const float* frow = a.filter + ky * a.filter_w * C + c;
      for (std::size_t kx = kx0; kx < kx1; ++kx) {
        const auto ix = static_cast<std::size_t>(ix0 + static_cast<std::int64_t>(kx) * a.dilation_w);
        acc = hn::MulAdd(hn::LoadU(d, row + ix * C), hn::LoadU(d, frow + kx * C), acc);
      }
    }
    hn::StoreU(ReferenceClamp(acc, lo, hi), d, o + c);
  }
  for (; c < C; ++c) {
    float acc = a.bias[c];
    for (std::size_t ky = ky0; ky < ky1; ++ky) {
      const auto iy = static_cast<std::size_t>(iy0 + static_cast<std::int64_t>(ky) * a.dilation_h);
      for (std::size_t kx = kx0; kx < kx1; ++kx) {
        const auto ix = static_cast<std::size_t>(ix0 + static_cast<std::int64_t>(kx) * a.dilation_w);
        acc += in_b[(iy * a.in_w + ix) * C + c] * a.filter[(ky * a.filter_w + kx) * C + c];
      }
    }
    o[c] = clamp_scalar(acc, a.act_min, a.act_max);
  }
}

#if !HWY_HAVE_SCALABLE
/// Output pixels [x_begin, x_end) of one row whose 3x3 window (dilation 1, stride S) lies
/// inside the input; r0 points at the first of the three input rows.
template <std::size_t S>
HWY_NOINLINE void row3x3(const simd::DepthwiseF32Args& a, const float* r0, float* orow, std::size_t x_begin,
                         std::size_t x_end) {
  using D = hn::ScalableTag<float>;
  using V = hn::Vec<D>;
  constexpr std::size_t U = kPixelsPerStep;
  const D d;
  const std::size_t N = hn::Lanes(d), C = a.channels;
  const std::size_t row_stride = a.in_w * C;
  const V lo = hn::Set(d, a.act_min), hi = hn::Set(d, a.act_max);
  const std::size_t full = C - C % N;
  // Groups of U outputs outermost, channel vectors inside: the input columns a group reads
  // are used for all channels while they are in L1 (three 112 x 32 float rows do not fit in
  // it). The filter vectors are reloaded per group (9 loads for 9 * U fused multiply-adds).
  // With at least U outputs, the last group is moved back to end at x_end (recomputing a few
  // outputs with the same values) instead of leaving a tail of single outputs.
  const std::size_t groups = x_end - x_begin >= U ? (x_end - x_begin + U - 1) / U : 0;
  for (std::size_t gi = 0; gi < groups; ++gi) {
    const std::size_t x = x_begin + gi * U + U <= x_end ? x_begin + gi * U : x_end - U;
    // Input column of output x: x * S - pad_left (>= 0 here).
    const float* group = r0 + (x * S - static_cast<std::size_t>(a.pad_left)) * C;
    for (std::size_t c = 0; c < full; c += N) {
      V f[9];
#pragma GCC unroll 9
      for (std::size_t k = 0; k < 9; ++k) {
        f[k] = hn::LoadU(d, a.filter + k * C + c);
        keep_in_register(f[k]);
      }
      const V bv = hn::LoadU(d, a.bias + c);
      const float* base = group + c;
      V acc[U];
#pragma GCC unroll 8
      for (std::size_t u = 0; u < U; ++u) acc[u] = bv;
      // Each input column of the U windows is loaded once and used by every output whose
      // window holds it (output u reads columns u * S + kx): (U - 1) * S + 3 loads per row
      // instead of 3 * U.
#pragma GCC unroll 3
      for (std::size_t ky = 0; ky < 3; ++ky) {
        const float* row = base + ky * row_stride;
#pragma GCC unroll 24
        for (std::size_t j = 0; j < (U - 1) * S + 3; ++j) {
          V v = hn::LoadU(d, row + j * C);
          keep_in_register(v);
#pragma GCC unroll 3
          for (std::size_t kx = 0; kx < 3; ++kx) {
            if (j >= kx && (j - kx) % S == 0 && (j - kx) / S < U)
              acc[(j - kx) / S] = hn::MulAdd(v, f[ky * 3 + kx], acc[(j - kx) / S]);
          }
        }
      }
#pragma GCC unroll 8
      for (std::size_t u = 0; u < U; ++u) hn::StoreU(ReferenceClamp(acc[u], lo, hi), d, orow + (x + u) * C + c);
    }
  }
  for (std::size_t x = groups > 0 ? x_end : x_begin; x < x_end; ++x) {
    for (std::size_t c = 0; c < full; c += N) {
      const float* base = r0 + (x * S - static_cast<std::size_t>(a.pad_left)) * C + c;
      V acc = hn::LoadU(d, a.bias + c);
#pragma GCC unroll 3
      for (std::size_t ky = 0; ky < 3; ++ky)
#pragma GCC unroll 3
        for (std::size_t kx = 0; kx < 3; ++kx)
          acc = hn::MulAdd(hn::LoadU(d, base + ky * row_stride + kx * C), hn::LoadU(d, a.filter + (ky * 3 + kx) * C + c), acc);
      hn::StoreU(ReferenceClamp(acc, lo, hi), d, orow + x * C + c);
    }
  }
  // Channels past the last full vector (none when C is a multiple of N: skip the loop over
  // the pixels, whose bookkeeping alone is not free).
  if (full < C)
  for (std::size_t x = x_begin; x < x_end; ++x) {
    const float* base = r0 + (x * S - static_cast<std::size_t>(a.pad_left)) * C;
    for (std::size_t c = full; c < C; ++c) {
      float acc = a.bias[c];
      for (std::size_t ky = 0; ky < 3; ++ky)
        for (std::size_t kx = 0; kx < 3; ++kx)
          acc += base[ky * row_stride + kx * C + c] * a.filter[(ky * 3 + kx) * C + c];
      orow[x * C + c] = clamp_scalar(acc, a.act_min, a.act_max);
    }
  }
}

#if NNHAL_DW_X8
/// One vector of the x8 path: 8 floats on AVX2, 16 on AVX-512.
#if HWY_TARGET == HWY_AVX2
using XV = __m256;
#define NNHAL_DW_XREG "x"  // the asm constraint of an XV: AVX2's 16 registers
HWY_INLINE XV x_fmadd(XV a, XV b, XV c) { return _mm256_fmadd_ps(a, b, c); }
HWY_INLINE XV x_set1(float v) { return _mm256_set1_ps(v); }
HWY_INLINE XV x_loadu(const float* p) { return _mm256_loadu_ps(p); }
#else
using XV = __m512;
#define NNHAL_DW_XREG "v"  // the asm constraint of an XV: any of AVX-512's 32 registers
HWY_INLINE XV x_fmadd(XV a, XV b, XV c) { return _mm512_fmadd_ps(a, b, c); }
HWY_INLINE XV x_set1(float v) { return _mm512_set1_ps(v); }
HWY_INLINE XV x_loadu(const float* p) { return _mm512_loadu_ps(p); }
#endif
inline constexpr std::size_t kXLanes = sizeof(XV) / sizeof(float);

/// Vector j (0 <= j <= 16) of a run at stride s bytes from p: p + j * s, addressed as a base
/// register plus s or 3 * s scaled by 1, 2, 4 or 8 (p + 3s, p + 8s and p + 11s are the other
/// bases). With the stride known only at run time, g++ otherwise keeps one pointer per column
/// (30 for 8 outputs of 3 rows, 9 for the filter, 8 for the outputs) and reloads them from the
/// stack in the inner loop; a few base registers and two stride registers stay in registers.
/// The load reads memory the kernel does not write (the output does not overlap the input).
template <std::size_t J>
HWY_INLINE XV load_at(const float* p, std::size_t s, std::size_t s3) {
  static_assert(J <= 16);
  const char* b = reinterpret_cast<const char*>(p);
  const char* b8 = b + 8 * s;
  XV v;
  if constexpr (J == 0) asm("vmovups (%1), %0" : "=" NNHAL_DW_XREG(v) : "r"(b), "m"(*p));
  else if constexpr (J == 1) asm("vmovups (%1,%2,1), %0" : "=" NNHAL_DW_XREG(v) : "r"(b), "r"(s), "m"(*p));
  else if constexpr (J == 2) asm("vmovups (%1,%2,2), %0" : "=" NNHAL_DW_XREG(v) : "r"(b), "r"(s), "m"(*p));
  else if constexpr (J == 3) asm("vmovups (%1,%2,1), %0" : "=" NNHAL_DW_XREG(v) : "r"(b), "r"(s3), "m"(*p));
  else if constexpr (J == 4) asm("vmovups (%1,%2,4), %0" : "=" NNHAL_DW_XREG(v) : "r"(b), "r"(s), "m"(*p));
  else if constexpr (J == 5) asm("vmovups (%1,%2,2), %0" : "=" NNHAL_DW_XREG(v) : "r"(b + s3), "r"(s), "m"(*p));
  else if constexpr (J == 6) asm("vmovups (%1,%2,2), %0" : "=" NNHAL_DW_XREG(v) : "r"(b), "r"(s3), "m"(*p));
  else if constexpr (J == 7) asm("vmovups (%1,%2,4), %0" : "=" NNHAL_DW_XREG(v) : "r"(b + s3), "r"(s), "m"(*p));
  else if constexpr (J == 8) asm("vmovups (%1,%2,8), %0" : "=" NNHAL_DW_XREG(v) : "r"(b), "r"(s), "m"(*p));
  else if constexpr (J == 9) asm("vmovups (%1,%2,2), %0" : "=" NNHAL_DW_XREG(v) : "r"(b + s3), "r"(s3), "m"(*p));
  else if constexpr (J == 10) asm("vmovups (%1,%2,2), %0" : "=" NNHAL_DW_XREG(v) : "r"(b8), "r"(s), "m"(*p));
  else if constexpr (J == 11) asm("vmovups (%1,%2,1), %0" : "=" NNHAL_DW_XREG(v) : "r"(b8), "r"(s3), "m"(*p));
  else if constexpr (J == 12) asm("vmovups (%1,%2,4), %0" : "=" NNHAL_DW_XREG(v) : "r"(b8), "r"(s), "m"(*p));
  else if constexpr (J == 13) asm("vmovups (%1,%2,2), %0" : "=" NNHAL_DW_XREG(v) : "r"(b8 + s3), "r"(s), "m"(*p));
  else if constexpr (J == 14) asm("vmovups (%1,%2,2), %0" : "=" NNHAL_DW_XREG(v) : "r"(b8), "r"(s3), "m"(*p));
  else if constexpr (J == 15) asm("vmovups (%1,%2,4), %0" : "=" NNHAL_DW_XREG(v) : "r"(b8 + s3), "r"(s), "m"(*p));
  else asm("vmovups (%1,%2,8), %0" : "=" NNHAL_DW_XREG(v) : "r"(b8), "r"(s), "m"(*p));
  return v;
}

/// Stores v at p + j * s bytes (0 <= j <= 8), addressed as load_at.
template <std::size_t J>
HWY_INLINE void store_at(XV v, float* p, std::size_t s, std::size_t s3) {
  static_assert(J <= 8);
  char* b = reinterpret_cast<char*>(p);
  if constexpr (J == 0) asm volatile("vmovups %1, (%2)" : "=m"(*p) : NNHAL_DW_XREG(v), "r"(b));
  else if constexpr (J == 1) asm volatile("vmovups %1, (%2,%3,1)" : "=m"(*p) : NNHAL_DW_XREG(v), "r"(b), "r"(s));
  else if constexpr (J == 2) asm volatile("vmovups %1, (%2,%3,2)" : "=m"(*p) : NNHAL_DW_XREG(v), "r"(b), "r"(s));
  else if constexpr (J == 3) asm volatile("vmovups %1, (%2,%3,1)" : "=m"(*p) : NNHAL_DW_XREG(v), "r"(b), "r"(s3));
  else if constexpr (J == 4) asm volatile("vmovups %1, (%2,%3,4)" : "=m"(*p) : NNHAL_DW_XREG(v), "r"(b), "r"(s));
  else if constexpr (J == 5) asm volatile("vmovups %1, (%2,%3,2)" : "=m"(*p) : NNHAL_DW_XREG(v), "r"(b + s3), "r"(s));
  else if constexpr (J == 6) asm volatile("vmovups %1, (%2,%3,2)" : "=m"(*p) : NNHAL_DW_XREG(v), "r"(b), "r"(s3));
  else if constexpr (J == 7) asm volatile("vmovups %1, (%2,%3,4)" : "=m"(*p) : NNHAL_DW_XREG(v), "r"(b + s3), "r"(s));
  else asm volatile("vmovups %1, (%2,%3,8)" : "=m"(*p) : NNHAL_DW_XREG(v), "r"(b), "r"(s));
}

/// Stores the 8 outputs of a group at p + u * s bytes, clamped to [lo, hi] (ReferenceClamp,
/// simd/base-inl.h) when Clamp.
template <bool Clamp, std::size_t... U>
HWY_INLINE void store_row(const XV (&acc)[8], float* p, std::size_t s, std::size_t s3, XV lo, XV hi,
                          std::index_sequence<U...>) {
  using V = hn::Vec<hn::ScalableTag<float>>;  // XV's Highway vector
  if constexpr (Clamp)
    (store_at<U>(ReferenceClamp(V{acc[U]}, V{lo}, V{hi}).raw, p, s, s3), ...);
  else
    (store_at<U>(acc[U], p, s, s3), ...);
}

/// Whether row3x3_x8 suits C channels at stride S: a group reads 3 rows of 7 * S + 3 columns
/// C floats apart (and the rows of a row are a multiple of 4 KiB apart in the shapes that
/// matter); with a power-of-two stride those lines share 4 KiB / stride of the L1 sets, and
/// past some lines per set they evict each other. AVX2 (measured on Zen 3, 32 KiB 8-way L1):
/// slower than row3x3 from 512 channels with stride 1 and from 128 with stride 2 (equal at 256
/// with stride 1), so up to 24 KiB of columns. AVX-512 (measured on Zen 5, 48 KiB 12-way L1):
/// faster than row3x3 also at 256 and 512 channels with stride 1 and 256 with stride 2 (0.90
/// to 0.92 of its time), so up to 64 KiB.
#if HWY_TARGET == HWY_AVX2
inline constexpr std::size_t kX8ColumnBytes = 6 * 4096;
#else
inline constexpr std::size_t kX8ColumnBytes = 16 * 4096;
#endif
template <std::size_t S>
HWY_INLINE bool x8_fits_l1(std::size_t C) {
  return 3 * (7 * S + 3) * C * sizeof(float) <= kX8ColumnBytes;
}

/// FMAs of input column J of one window row into the outputs that read it (output u reads
/// columns u * S + kx), then the next column.
template <std::size_t S, std::size_t J>
HWY_INLINE void row_columns(const float* row, std::size_t s, std::size_t s3, const XV (&f)[3],
                            XV (&acc)[8]) {
  if constexpr (J < 7 * S + 3) {
    const XV v = load_at<J>(row, s, s3);
    if constexpr (J % S == 0 && J / S < 8) acc[J / S] = x_fmadd(v, f[0], acc[J / S]);
    if constexpr (J >= 1 && (J - 1) % S == 0 && (J - 1) / S < 8)
      acc[(J - 1) / S] = x_fmadd(v, f[1], acc[(J - 1) / S]);
    if constexpr (J >= 2 && (J - 2) % S == 0 && (J - 2) / S < 8)
      acc[(J - 2) / S] = x_fmadd(v, f[2], acc[(J - 2) / S]);
    row_columns<S, J + 1>(row, s, s3, f, acc);
  }
}

/// AVX2 and AVX-512: groups of 8 outputs of one channel vector, with the 3 filter vectors of
/// one window row in registers (8 accumulators + 3 filter + 1 input: within AVX2's 16). Each input
/// column of a window row is loaded once and feeds the up to 3 outputs that read it, so the 8
/// independent chains interleave; loads and stores address columns as load_at. Returns the
/// first output not computed (the outputs from there to x_end are left to row3x3).
template <std::size_t S>
HWY_NOINLINE std::size_t row3x3_x8(const simd::DepthwiseF32Args& a, const float* r0, float* orow,
                                   std::size_t x_begin, std::size_t x_end) {
  const std::size_t C = a.channels, full = C - C % kXLanes;
  const std::size_t s = C * sizeof(float), s3 = 3 * s;
  const std::size_t row_stride = a.in_w * C;
  const XV lo = x_set1(a.act_min), hi = x_set1(a.act_max);
  // No activation: the clamp's 16 max/min per group would share the FMA units for nothing
  // (measured 4 to 7% of the row's time).
  const bool no_clamp = a.act_min == -std::numeric_limits<float>::infinity() &&
                        a.act_max == std::numeric_limits<float>::infinity();
  // A rest of 5 to 7 outputs is one more group moved back to end at x_end (recomputing a few
  // outputs with the same values, as in row3x3); a rest of 4 or fewer is left to row3x3 (one
  // group of 4 or single outputs, measured faster than a group of 8).
  const std::size_t n = x_end - x_begin;
  if (n < 8) return x_begin;
  const std::size_t rest = n % 8, stop = rest >= 5 ? x_end : x_end - rest;
  for (std::size_t next = x_begin; next < stop; next += 8) {
    const std::size_t x = next + 8 <= stop ? next : stop - 8;
    const float* group = r0 + (x * S - static_cast<std::size_t>(a.pad_left)) * C;
    float* out = orow + x * C;
    for (std::size_t c = 0; c < full; c += kXLanes) {
      const XV bv = x_loadu(a.bias + c);
      XV acc[8] = {bv, bv, bv, bv, bv, bv, bv, bv};
      const float* filt = a.filter + c;
      {
        const XV f[3] = {load_at<0>(filt, s, s3), load_at<1>(filt, s, s3), load_at<2>(filt, s, s3)};
        row_columns<S, 0>(group + c, s, s3, f, acc);
      }
      {
        const XV f[3] = {load_at<3>(filt, s, s3), load_at<4>(filt, s, s3), load_at<5>(filt, s, s3)};
        row_columns<S, 0>(group + row_stride + c, s, s3, f, acc);
      }
      {
        const XV f[3] = {load_at<6>(filt, s, s3), load_at<7>(filt, s, s3), load_at<8>(filt, s, s3)};
        row_columns<S, 0>(group + 2 * row_stride + c, s, s3, f, acc);
      }
      if (no_clamp)
        store_row<false>(acc, out + c, s, s3, lo, hi, std::make_index_sequence<8>());
      else
        store_row<true>(acc, out + c, s, s3, lo, hi, std::make_index_sequence<8>());
    }
    // Channels past the last full vector, for these 8 outputs.
    for (std::size_t u = 0; u < 8 && full < C; ++u) {
      const float* base = group + u * S * C;
      for (std::size_t c = full; c < C; ++c) {
        float sum = a.bias[c];
        for (std::size_t ky = 0; ky < 3; ++ky)
          for (std::size_t kx = 0; kx < 3; ++kx)
            sum += base[ky * row_stride + kx * C + c] * a.filter[(ky * 3 + kx) * C + c];
        out[u * C + c] = clamp_scalar(sum, a.act_min, a.act_max);
      }
    }
  }
  return stop;
}
#endif

/// Output pixels [x0, x0 + count) (count <= U) of row y for a 3x3 filter (dilation 1, stride S
/// both ways) whose windows may leave the input (the borders): the same U-output column reuse
/// as row3x3, with the taps outside the input skipped (as the reference skips them).
template <std::size_t S>
HWY_NOINLINE void border3x3(const simd::DepthwiseF32Args& a, const float* in_b, std::size_t y, std::size_t x0,
                            std::size_t count, float* orow) {
  using D = hn::ScalableTag<float>;
  using V = hn::Vec<D>;
  constexpr std::size_t U = kPixelsPerStep;
  const D d;
  const std::size_t N = hn::Lanes(d), C = a.channels;
  const auto H = static_cast<std::int64_t>(a.in_h), W = static_cast<std::int64_t>(a.in_w);
  const std::int64_t iy0 = static_cast<std::int64_t>(y * S) - a.pad_top;
  const std::int64_t ix0 = static_cast<std::int64_t>(x0 * S) - a.pad_left;
  const float* rows[3];
  for (std::size_t ky = 0; ky < 3; ++ky) {
    const std::int64_t iy = iy0 + static_cast<std::int64_t>(ky);
    rows[ky] = iy >= 0 && iy < H ? in_b + static_cast<std::size_t>(iy) * a.in_w * C : nullptr;
  }
  const V lo = hn::Set(d, a.act_min), hi = hn::Set(d, a.act_max);
  const std::size_t full = C - C % N;
  for (std::size_t c = 0; c < full; c += N) {
    V f[9];
#pragma GCC unroll 9
    for (std::size_t k = 0; k < 9; ++k) f[k] = hn::LoadU(d, a.filter + k * C + c);
    V acc[U];
    const V bv = hn::LoadU(d, a.bias + c);
#pragma GCC unroll 8
    for (std::size_t u = 0; u < U; ++u) acc[u] = bv;
#pragma GCC unroll 3
    for (std::size_t ky = 0; ky < 3; ++ky) {
      if (rows[ky] == nullptr) continue;
#pragma GCC unroll 24
      for (std::size_t j = 0; j < (U - 1) * S + 3; ++j) {
        const std::int64_t col = ix0 + static_cast<std::int64_t>(j);
        if (col < 0 || col >= W) continue;
        const V v = hn::LoadU(d, rows[ky] + static_cast<std::size_t>(col) * C + c);
#pragma GCC unroll 3
        for (std::size_t kx = 0; kx < 3; ++kx) {
          if (j >= kx && (j - kx) % S == 0 && (j - kx) / S < U)
            acc[(j - kx) / S] = hn::MulAdd(v, f[ky * 3 + kx], acc[(j - kx) / S]);
        }
      }
    }
#pragma GCC unroll 8
    for (std::size_t u = 0; u < U; ++u)
      if (u < count) hn::StoreU(ReferenceClamp(acc[u], lo, hi), d, orow + (x0 + u) * C + c);
  }
  // Channels past the last full vector (none when C is a multiple of N: skip the loop over
  // the pixels, whose bookkeeping alone is not free).
  if (full < C)
  for (std::size_t u = 0; u < count; ++u) {
    for (std::size_t c = full; c < C; ++c) {
      float acc = a.bias[c];
      for (std::size_t ky = 0; ky < 3; ++ky) {
        if (rows[ky] == nullptr) continue;
        for (std::size_t kx = 0; kx < 3; ++kx) {
          const std::int64_t col = ix0 + static_cast<std::int64_t>(u * S + kx);
          if (col < 0 || col >= W) continue;
          acc += rows[ky][static_cast<std::size_t>(col) * C + c] * a.filter[(ky * 3 + kx) * C + c];
        }
      }
      orow[(x0 + u) * C + c] = clamp_scalar(acc, a.act_min, a.act_max);
    }
  }
}

/// border3x3 over [x_begin, x_end) in groups of U.
template <std::size_t S>
HWY_INLINE void border_span(const simd::DepthwiseF32Args& a, const float* in_b, std::size_t y, std::size_t x_begin,
                            std::size_t x_end, float* orow) {
  for (std::size_t x = x_begin; x < x_end; x += kPixelsPerStep)
    border3x3<S>(a, in_b, y, x, x_end - x < kPixelsPerStep ? x_end - x : kPixelsPerStep, orow);
}
#endif

}  // namespace dw_detail

/// Target-specific body of simd::depthwise_f32.
inline void DepthwiseF32(const simd::DepthwiseF32Args& a) {
  namespace dd = dw_detail;
  const std::size_t C = a.channels;
  if (a.batch == 0 || a.out_h == 0 || a.out_w == 0 || C == 0) return;
#if !HWY_HAVE_SCALABLE
  const bool fast = a.filter_h == 3 && a.filter_w == 3 && a.dilation_h == 1 && a.dilation_w == 1 &&
                    a.stride_h == a.stride_w && (a.stride_w == 1 || a.stride_w == 2) && a.in_w >= 3 && a.in_h >= 3;
  // Interior columns: x * S - pad_left >= 0 and x * S - pad_left + 2 <= in_w - 1.
  std::size_t x_lo = 0, x_hi = 0;
  if (fast) {
    const std::int64_t S = a.stride_w;
    std::int64_t lo = (a.pad_left + S - 1) / S;
    std::int64_t hi = (static_cast<std::int64_t>(a.in_w) - 3 + a.pad_left) / S + 1;
    if (hi > static_cast<std::int64_t>(a.out_w)) hi = static_cast<std::int64_t>(a.out_w);
    if (lo > hi) lo = hi;
    x_lo = static_cast<std::size_t>(lo), x_hi = static_cast<std::size_t>(hi);
  }
#endif
  for (std::size_t b = 0; b < a.batch; ++b) {
    const float* in_b = a.in + b * a.in_h * a.in_w * C;
    float* out_b = a.out + b * a.out_h * a.out_w * C;
    for (std::size_t y = a.row_begin; y < (a.row_end < a.out_h ? a.row_end : a.out_h); ++y) {
      float* orow = out_b + y * a.out_w * C;
#if !HWY_HAVE_SCALABLE
      const std::int64_t iy0 = static_cast<std::int64_t>(y) * a.stride_h - a.pad_top;
      if (fast) {
        // Interior rows: row3x3, and pixel() for the few border columns; rows whose window
        // leaves the input (top, bottom) through border3x3, U outputs at a time.
        const bool interior = iy0 >= 0 && iy0 + 2 < static_cast<std::int64_t>(a.in_h) && x_lo < x_hi;
        if (a.stride_w == 1) {
          if (!interior) {
            dd::border_span<1>(a, in_b, y, 0, a.out_w, orow);
            continue;
          }
          for (std::size_t x = 0; x < x_lo; ++x) dd::pixel(a, in_b, y, x, orow + x * C);
          {
            const float* r0 = in_b + static_cast<std::size_t>(iy0) * a.in_w * C;
#if NNHAL_DW_X8
            const std::size_t x_mid = dd::x8_fits_l1<1>(C) ? dd::row3x3_x8<1>(a, r0, orow, x_lo, x_hi) : x_lo;
#else
            const std::size_t x_mid = x_lo;
#endif
            dd::row3x3<1>(a, r0, orow, x_mid, x_hi);
          }
          for (std::size_t x = x_hi; x < a.out_w; ++x) dd::pixel(a, in_b, y, x, orow + x * C);
        } else {
          if (!interior) {
            dd::border_span<2>(a, in_b, y, 0, a.out_w, orow);
            continue;
          }
          for (std::size_t x = 0; x < x_lo; ++x) dd::pixel(a, in_b, y, x, orow + x * C);
          {
            const float* r0 = in_b + static_cast<std::size_t>(iy0) * a.in_w * C;
#if NNHAL_DW_X8
            const std::size_t x_mid = dd::x8_fits_l1<2>(C) ? dd::row3x3_x8<2>(a, r0, orow, x_lo, x_hi) : x_lo;
#else
            const std::size_t x_mid = x_lo;
#endif
            dd::row3x3<2>(a, r0, orow, x_mid, x_hi);
          }
          for (std::size_t x = x_hi; x < a.out_w; ++x) dd::pixel(a, in_b, y, x, orow + x * C);
        }
        continue;
      }
#endif
      for (std::size_t x = 0; x < a.out_w; ++x) dd::pixel(a, in_b, y, x, orow + x * C);
    }
  }
}

/// This target's table of the family.
inline constexpr simd::DepthwiseF32 kDepthwiseF32{&DepthwiseF32};

#undef NNHAL_DW_X8
#undef NNHAL_DW_XREG

}  // namespace nnhal::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
