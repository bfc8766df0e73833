// Per-target body of nnhal's FLOAT32 NHWC convolution on packed weights: compiled once per
// Highway target by nnhal/simd/conv_f32.hpp (through nnhal/simd/foreach_target-inl.h), which
// declares simd::ConvF32 and simd::ConvF32Args first. Not a header to include on its own; it
// has no include guard on purpose.
//
// An indirect GEMM (as XNNPACK's IGEMM): the output is a [pixels, out_c] matrix, the packed
// filter a [K, out_c] matrix in panels of NR channels, and the input row of each (pixel, tap)
// is found through a pointer computed per tile (to the input pixel, or to a row of zeros for a
// tap in the padding) instead of an im2col copy; a 1x1 convolution reads the input in place.
// A pointwise convolution (1x1, stride 1, no padding) runs panel by panel over blocks of tiles
// whose input stays in L1, so a panel's weights are loaded into L1 once per block instead of
// once per tile; the others run tile by tile over every panel (or over pixel blocks when the
// weights outgrow L2).
// A register tile is MR output pixels x NV vectors of channels (NR = NV * lanes): per input
// channel it loads NV weight vectors and does MR * NV fused multiply-adds with the broadcast
// input values. Accumulators start from the bias; the clamp (the reference's comparisons, so
// NaN propagates) follows the last tap. Tile shapes follow the register file: 6 x 4 vectors
// with 32 registers (24 accumulators), 6 x 2 with 16; fewer output channels take narrower panels with more rows (panel_width(out_c)). The last
// partial group of pixels recomputes the last pixel in the spare rows and stores only the real
// ones; a partial panel stores its valid channels through a stack copy. Scalable targets
// (SVE, RVV), whose vectors cannot live in arrays, use a 1-pixel x 1-vector tile.
//
// Results differ from the plain reference (nnhal::kernels::conv::plain_float) only in the order
// of the additions (the bias first, per-lane fused multiply-adds over taps and channels): with
// u = 2^-24 and S = sum |in * w| + |bias| over one output, both lie within (K + 1) * u * S of
// the exact value to first order (tests/simd/conv_f32.cpp checks it).

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace nnhal::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

namespace conv_detail {

inline constexpr std::size_t kRegisters = kVectorRegisters;  // (simd/base-inl.h)

/// Index of a tap's input row: the pixel (iy, ix) of `image`, or the zero row when outside.
HWY_INLINE const float* tap_row(const simd::ConvF32Args& a, const float* image, const float* zeros, std::int64_t iy,
                                std::int64_t ix) {
  if (iy < 0 || ix < 0 || iy >= static_cast<std::int64_t>(a.in_h) || ix >= static_cast<std::int64_t>(a.in_w))
    return zeros;
  return image + (static_cast<std::size_t>(iy) * a.in_w + static_cast<std::size_t>(ix)) * a.in_c;
}

#if !HWY_HAVE_SCALABLE

inline constexpr std::size_t kLanes = HWY_LANES(float);
inline constexpr std::size_t kMaxVectors = kRegisters >= 32 ? 4 : 2;

/// Vectors of channels per panel for out_c channels: the widest panel unless two-vector panels
/// leave fewer channels unused (96 = 3 x 32 rather than 2 x 64 with 32 unused; both tiles hold
/// the same number of accumulators).
constexpr std::size_t vectors_for(std::size_t out_c) {
  if (out_c <= kLanes) return 1;
  if (out_c <= 2 * kLanes || kMaxVectors == 2) return 2;
  const auto padded = [out_c](std::size_t width) { return (out_c + width - 1) / width * width; };
  return padded(2 * kLanes) < padded(kMaxVectors * kLanes) ? 2 : kMaxVectors;
}

/// Pixels per tile for NV vectors of channels (MR * NV accumulators + NV weights + 1).
constexpr std::size_t rows_for(std::size_t nv) {
  if constexpr (kRegisters >= 32) return nv >= 4 ? 6 : 12;
  return nv >= 2 ? 6 : 12;
}

/// Asks for the cache line `bytes` past `p` (weights 8 steps ahead: the panels stream from L2,
/// and the hardware prefetcher alone leaves the tile waiting on them about 8% of the time).
/// Integer arithmetic: the address may lie past the buffer, which a prefetch never reads.
HWY_INLINE void prefetch(const float* p, std::size_t bytes) {
  __builtin_prefetch(reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(p) + bytes), 0, 3);
}

/// Hides a vector's value from the optimizer so that it is not hoisted out of its loop.
template <class V>
HWY_INLINE void opaque(V& v) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_SSSE3 && (HWY_COMPILER_GCC || HWY_COMPILER_CLANG)
  asm volatile("" : "+v"(v.raw));
#else
  (void)v;
#endif
}

/// The tile's accumulators from the panel's NR biases.
template <std::size_t MR, std::size_t NV, class V>
HWY_INLINE void start_tile(V (&acc)[MR * NV], const float* panel) {
  const hn::DFromV<V> d;
#pragma GCC unroll 16
  for (std::size_t v = 0; v < NV; ++v) {
    const V bv = hn::LoadU(d, panel + v * kLanes);
#pragma GCC unroll 16
    for (std::size_t m = 0; m < MR; ++m) acc[m * NV + v] = bv;
  }
}

/// acc[m] += the `count` input values at src[m] times the weight rows at wp; returns wp advanced
/// past them. kPrefetch asks for the weights 8 rows ahead (for panels that stream from L2): one
/// prefetch per 64 bytes of a row. The rows are contiguous, so every cache line holds the start
/// of a row or one of its 64-byte steps whatever the alignment; a second prefetch of the same
/// line (AVX2's 64-byte rows asked twice) only took a load slot (measured 1% of a 3x3 run).
template <std::size_t MR, std::size_t NV, bool kPrefetch, class V>
HWY_INLINE const float* madd(V (&acc)[MR * NV], const float* const* src, std::size_t count, const float* wp) {
  const hn::DFromV<V> d;
  constexpr std::size_t N = kLanes, NR = NV * N;
  // Two input channels per trip: half the loop's own instructions (measured 0.92 to 0.99 of the
  // time; unrolled by 4, no better).
#pragma GCC unroll 2
  for (std::size_t c = 0; c < count; ++c) {
    V wv[NV];
#pragma GCC unroll 16
    for (std::size_t v = 0; v < NV; ++v) {
      if (kPrefetch && v * N * sizeof(float) % 64 == 0) prefetch(wp, (8 * NR + v * N) * sizeof(float));
      wv[v] = hn::LoadU(d, wp + v * N);
      KeepInRegister(wv[v]);
    }
#pragma GCC unroll 16
    for (std::size_t m = 0; m < MR; ++m) {
      const V xb = hn::Set(d, src[m][c]);
#pragma GCC unroll 16
      for (std::size_t v = 0; v < NV; ++v) acc[m * NV + v] = hn::MulAdd(xb, wv[v], acc[m * NV + v]);
    }
    wp += NR;
  }
  return wp;
}

/// Stores rows (<= MR) pixels of the tile, out_c floats apart from `out`, `valid` (<= NR)
/// channels each, clamped to [act_min, act_max]. A whole tile with no activation stores the
/// accumulators as they are (the clamp to [-inf, inf] returns every value, NaN included) and
/// straight from the registers.
template <std::size_t MR, std::size_t NV, class V>
HWY_INLINE void store_tile(V (&acc)[MR * NV], float* out, std::size_t out_c, std::size_t rows, std::size_t valid,
                           float act_min, float act_max) {
  const hn::DFromV<V> d;
  constexpr std::size_t N = kLanes, NR = NV * N;
  if (rows == MR && valid == NR && act_min == -std::numeric_limits<float>::infinity() &&
      act_max == std::numeric_limits<float>::infinity()) {
#pragma GCC unroll 16
    for (std::size_t m = 0; m < MR; ++m)
#pragma GCC unroll 16
      for (std::size_t v = 0; v < NV; ++v) hn::StoreU(acc[m * NV + v], d, out + m * out_c + v * N);
    return;
  }
  // The clamp bounds are made here (opaque to the compiler) rather than before the loops:
  // hoisted, they would hold two of the registers the tile needs and make g++ spill weights.
  V lo = hn::Set(d, act_min), hi = hn::Set(d, act_max);
  opaque(lo);
  opaque(hi);
  // Every index into acc a constant (the loop unrolled, rows tested per row): a run-time index
  // would make g++ keep the accumulators in memory and copy them there after every tile.
#pragma GCC unroll 16
  for (std::size_t m = 0; m < MR; ++m) {
    if (m >= rows) break;
    float* o = out + m * out_c;
    if (valid == NR) {
#pragma GCC unroll 16
      for (std::size_t v = 0; v < NV; ++v) hn::StoreU(ReferenceClamp(acc[m * NV + v], lo, hi), d, o + v * N);
    } else {
      // The panel's valid channels: whole vectors, then the rest of one through a stack copy
      // (Highway 1.0's BlendedStore rewrites the whole vector on some targets: past the
      // image, or into a neighbour's pixel that another thread is writing).
#pragma GCC unroll 16
      for (std::size_t v = 0; v < NV; ++v) {
        if ((v + 1) * N <= valid) {
          hn::StoreU(ReferenceClamp(acc[m * NV + v], lo, hi), d, o + v * N);
        } else if (v * N < valid) {
          HWY_ALIGN float tmp[N];
          hn::Store(ReferenceClamp(acc[m * NV + v], lo, hi), d, tmp);
          std::memcpy(o + v * N, tmp, (valid - v * N) * sizeof(float));
        }
      }
    }
  }
}

/// Output pixels [p0, p0 + rows) of one image (rows <= MR), panels [j_begin, j_end).
template <std::size_t MR, std::size_t NV>
HWY_NOINLINE void tile(const simd::ConvF32Args& a, const float* image, float* out_image, std::size_t p0,
                       std::size_t rows, std::size_t j_begin, std::size_t j_end) {
  using V = hn::Vec<hn::ScalableTag<float>>;
  constexpr std::size_t NR = NV * kLanes;
  const std::size_t K = a.filter_h * a.filter_w * a.in_c;
  const std::size_t panels = (a.out_c + NR - 1) / NR;
  const float* zeros = a.packed + panels * (K + 1) * NR;
  std::int64_t iy0[MR], ix0[MR];
  for (std::size_t m = 0; m < MR; ++m) {
    const std::size_t p = p0 + (m < rows ? m : rows - 1);
    iy0[m] = static_cast<std::int64_t>(p / a.out_w) * a.stride_h - a.pad_top;
    ix0[m] = static_cast<std::int64_t>(p % a.out_w) * a.stride_w - a.pad_left;
  }
  for (std::size_t j = j_begin; j < j_end; ++j) {
    const float* panel = a.packed + j * (K + 1) * NR;
    V acc[MR * NV];
    start_tile<MR, NV>(acc, panel);
    const float* wp = panel + NR;
    for (std::size_t fy = 0; fy < a.filter_h; ++fy) {
      // A filter row whose taps all lie inside the input, for every pixel of the tile, reads
      // filter_w * in_c consecutive values (NHWC, dilation 1), in the order the weights are
      // packed: one run instead of one per tap. Same products, same order.
      const float* src[MR];
      bool whole = a.dilation_w == 1;
#pragma GCC unroll 16
      for (std::size_t m = 0; m < MR; ++m) {
        const std::int64_t iy = iy0[m] + static_cast<std::int64_t>(fy) * a.dilation_h;
        whole = whole && iy >= 0 && iy < static_cast<std::int64_t>(a.in_h) && ix0[m] >= 0 &&
                ix0[m] + static_cast<std::int64_t>(a.filter_w) <= static_cast<std::int64_t>(a.in_w);
        src[m] = whole ? image + (static_cast<std::size_t>(iy) * a.in_w + static_cast<std::size_t>(ix0[m])) * a.in_c
                       : nullptr;
      }
      if (whole) {
        wp = madd<MR, NV, true>(acc, src, a.filter_w * a.in_c, wp);
        continue;
      }
      for (std::size_t fx = 0; fx < a.filter_w; ++fx) {
#pragma GCC unroll 16
        for (std::size_t m = 0; m < MR; ++m)
          src[m] = tap_row(a, image, zeros, iy0[m] + static_cast<std::int64_t>(fy) * a.dilation_h,
                           ix0[m] + static_cast<std::int64_t>(fx) * a.dilation_w);
        wp = madd<MR, NV, true>(acc, src, a.in_c, wp);
      }
    }
    const std::size_t oc0 = j * NR;
    store_tile<MR, NV>(acc, out_image + p0 * a.out_c + oc0, a.out_c, rows,
                       a.out_c - oc0 < NR ? a.out_c - oc0 : NR, a.act_min, a.act_max);
  }
}

/// A pointwise convolution (1x1 filter, stride 1, no padding: output pixel p reads input pixel
/// p) over the pixels [q0, q1) of one image, panels [j_begin, j_end): panel by panel, every
/// tile of the block, so the panel's weights stay in L1 while they are used, and the block's
/// input (sized to stay in L1 too) serves each panel. Each tile reads its rows in place.
template <std::size_t MR, std::size_t NV>
HWY_NOINLINE void pointwise_block(const simd::ConvF32Args& a, const float* image, float* out_image, std::size_t q0,
                                  std::size_t q1, std::size_t j_begin, std::size_t j_end) {
  using V = hn::Vec<hn::ScalableTag<float>>;
  constexpr std::size_t NR = NV * kLanes;
  for (std::size_t j = j_begin; j < j_end; ++j) {
    const float* panel = a.packed + j * (a.in_c + 1) * NR;
    const std::size_t oc0 = j * NR, valid = a.out_c - oc0 < NR ? a.out_c - oc0 : NR;
    for (std::size_t p0 = q0; p0 < q1; p0 += MR) {
      const std::size_t rows = q1 - p0 < MR ? q1 - p0 : MR;
      const float* src[MR];
#pragma GCC unroll 16
      for (std::size_t m = 0; m < MR; ++m) src[m] = image + (p0 + (m < rows ? m : rows - 1)) * a.in_c;
      V acc[MR * NV];
      start_tile<MR, NV>(acc, panel);
      madd<MR, NV, false>(acc, src, a.in_c, panel + NR);
      store_tile<MR, NV>(acc, out_image + p0 * a.out_c + oc0, a.out_c, rows, valid, a.act_min, a.act_max);
    }
  }
}

/// Every image and pixel with tiles of NV vectors of channels.
template <std::size_t NV>
HWY_INLINE void run_vectors(const simd::ConvF32Args& a) {
  constexpr std::size_t MR = rows_for(NV);
  constexpr std::size_t NR = NV * kLanes;
  const std::size_t pixels = a.out_h * a.out_w, end = a.pixel_end < pixels ? a.pixel_end : pixels;
  const std::size_t K = a.filter_h * a.filter_w * a.in_c, panels = (a.out_c + NR - 1) / NR;
  const std::size_t j_begin = a.panel_begin, j_end = a.panel_end < panels ? a.panel_end : panels;
  if (j_begin >= j_end) return;
  // Pixel-major (every panel for each tile of pixels) while the weights stay in L2; above that,
  // blocks of pixels whose input fits in half of L2, and within a block panel-major, so each
  // panel is read from memory once per block and the block's input stays in L2. Only the order
  // of the tiles changes, never what a tile computes.
  const std::size_t weight_bytes = (j_end - j_begin) * (K + 1) * NR * sizeof(float);
  const std::size_t input_bytes = K * sizeof(float) * MR;  // one tile's taps (an upper bound per pixel)
  constexpr std::size_t kL2Budget = std::size_t{1} << 20;
  std::size_t block = (kL2Budget / 2) / input_bytes * MR;
  if (block < MR) block = MR;
  const bool pointwise = a.filter_h == 1 && a.filter_w == 1 && a.stride_h == 1 && a.stride_w == 1 && a.pad_top == 0 &&
                         a.pad_left == 0 && a.in_h == a.out_h && a.in_w == a.out_w;
  // Pointwise blocks: tiles whose input fills at most 16 KiB (half of a common L1).
  constexpr std::size_t kL1Budget = std::size_t{16} << 10;
  std::size_t pw_tiles = a.in_c ? kL1Budget / (MR * a.in_c * sizeof(float)) : 32;
  pw_tiles = pw_tiles < 1 ? 1 : (pw_tiles > 32 ? 32 : pw_tiles);
  for (std::size_t b = 0; b < a.batch; ++b) {
    const float* image = a.in + b * a.in_h * a.in_w * a.in_c;
    float* out_image = a.out + b * pixels * a.out_c;
    if (pointwise) {
      for (std::size_t q0 = a.pixel_begin; q0 < end; q0 += pw_tiles * MR) {
        const std::size_t q1 = end - q0 < pw_tiles * MR ? end : q0 + pw_tiles * MR;
        pointwise_block<MR, NV>(a, image, out_image, q0, q1, j_begin, j_end);
      }
      continue;
    }
    if (weight_bytes <= kL2Budget) {
      for (std::size_t p0 = a.pixel_begin; p0 < end; p0 += MR)
        tile<MR, NV>(a, image, out_image, p0, end - p0 < MR ? end - p0 : MR, j_begin, j_end);
      continue;
    }
    for (std::size_t q0 = a.pixel_begin; q0 < end; q0 += block) {
      const std::size_t q1 = end - q0 < block ? end : q0 + block;
      for (std::size_t j = j_begin; j < j_end; ++j)
        for (std::size_t p0 = q0; p0 < q1; p0 += MR) tile<MR, NV>(a, image, out_image, p0, q1 - p0 < MR ? q1 - p0 : MR, j, j + 1);
    }
  }
}

#endif  // !HWY_HAVE_SCALABLE

}  // namespace conv_detail

/// Target-specific ConvF32::panel_width.
inline std::size_t ConvF32PanelWidth(std::size_t out_c) {
#if !HWY_HAVE_SCALABLE
  return conv_detail::vectors_for(out_c) * conv_detail::kLanes;
#else
  (void)out_c;
  return hn::Lanes(hn::ScalableTag<float>());
#endif
}

/// Target-specific ConvF32::run.
inline void ConvF32Run(const simd::ConvF32Args& a) {
  namespace cd = conv_detail;
  if (a.batch == 0 || a.out_h == 0 || a.out_w == 0 || a.out_c == 0) return;
#if !HWY_HAVE_SCALABLE
  const std::size_t nv = a.panel / cd::kLanes;
  if (nv == 1)
    cd::run_vectors<1>(a);
  else if (nv == 2)
    cd::run_vectors<2>(a);
  else if (nv == 4 && cd::kMaxVectors >= 4)
    cd::run_vectors<cd::kMaxVectors>(a);
#else
  const hn::ScalableTag<float> d;
  const std::size_t N = hn::Lanes(d), NR = a.panel;
  if (NR != N) return;
  const std::size_t K = a.filter_h * a.filter_w * a.in_c;
  const std::size_t panels = (a.out_c + NR - 1) / NR, pixels = a.out_h * a.out_w;
  const std::size_t end = a.pixel_end < pixels ? a.pixel_end : pixels;
  const float* zeros = a.packed + panels * (K + 1) * NR;
  const auto lo = hn::Set(d, a.act_min), hi = hn::Set(d, a.act_max);
  for (std::size_t b = 0; b < a.batch; ++b) {
    const float* image = a.in + b * a.in_h * a.in_w * a.in_c;
    for (std::size_t p = a.pixel_begin; p < end; ++p) {
      const std::int64_t iy0 = static_cast<std::int64_t>(p / a.out_w) * a.stride_h - a.pad_top;
      const std::int64_t ix0 = static_cast<std::int64_t>(p % a.out_w) * a.stride_w - a.pad_left;
      for (std::size_t j = a.panel_begin; j < (a.panel_end < panels ? a.panel_end : panels); ++j) {
        const float* wp = a.packed + j * (K + 1) * NR;
        auto acc = hn::LoadU(d, wp);
        wp += NR;
        for (std::size_t fy = 0; fy < a.filter_h; ++fy)
          for (std::size_t fx = 0; fx < a.filter_w; ++fx) {
            const float* src = cd::tap_row(a, image, zeros, iy0 + static_cast<std::int64_t>(fy) * a.dilation_h,
                                           ix0 + static_cast<std::int64_t>(fx) * a.dilation_w);
            for (std::size_t c = 0; c < a.in_c; ++c, wp += NR) acc = hn::MulAdd(hn::Set(d, src[c]), hn::LoadU(d, wp), acc);
          }
        const std::size_t oc0 = j * NR, valid = a.out_c - oc0 < NR ? a.out_c - oc0 : NR;
        hn::BlendedStore(hn::IfThenElse(acc < lo, lo, hn::IfThenElse(acc > hi, hi, acc)), hn::FirstN(d, valid), d,
                         a.out + (b * pixels + p) * a.out_c + oc0);
      }
    }
  }
#endif
}

/// This target's table of the family.
inline constexpr simd::ConvF32 kConvF32{&ConvF32PanelWidth, &ConvF32Run};

}  // namespace nnhal::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
