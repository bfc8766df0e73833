#pragma once
/// \file
/// SIMD family: the FLOAT32 NHWC convolution (one group) on weights packed into panels,
/// compiled for every target (nnhal/simd/dispatch.hpp). The per-target code (an indirect GEMM:
/// register tiles of output pixels x output channels, no im2col) and its accuracy bound are
/// described in nnhal/simd/conv_f32-inl.h.
///
/// Packed layout, for a panel width NR (ConvF32::panel_width(out_c)) and K = filter_h *
/// filter_w * in_c: ceil(out_c / NR) panels, panel j holding NR biases (channels j*NR ..
/// j*NR+NR-1) and then, for k < K, the NR weights filter[oc][k] of those channels (k runs over
/// the filter's [filter_h, filter_w, in_c] in memory order); channels past out_c are 0. After
/// the panels come in_c zeros: the row the kernel reads for a tap in the padding.

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "nnhal/simd/dispatch.hpp"

namespace nnhal::simd {

/// One run of the convolution: a batch of NHWC images, output NHWC.
struct ConvF32Args {
  const float* in = nullptr;      ///< [batch, in_h, in_w, in_c]
  float* out = nullptr;           ///< [batch, out_h, out_w, out_c], must not overlap the input
  const float* packed = nullptr;  ///< panels then in_c zeros (conv_f32_pack)
  std::size_t batch = 0, in_h = 0, in_w = 0, in_c = 0;
  std::size_t out_h = 0, out_w = 0, out_c = 0;
  std::size_t filter_h = 0, filter_w = 0;
  std::int64_t stride_h = 1, stride_w = 1, dilation_h = 1, dilation_w = 1, pad_top = 0, pad_left = 0;
  std::size_t panel = 0;  ///< NR the weights were packed with (panel_width(out_c))
  float act_min = 0.0f, act_max = 0.0f;
  /// Output pixels [pixel_begin, pixel_end) of every image (pixel = oy * out_w + ox; the end is
  /// clamped to out_h * out_w): a piece of the run for a thread. A pixel's value does not depend
  /// on the range it is computed in.
  std::size_t pixel_begin = 0, pixel_end = SIZE_MAX;
  /// Panels (groups of `panel` output channels) [panel_begin, panel_end) only, likewise.
  std::size_t panel_begin = 0, panel_end = SIZE_MAX;
};

/// Pixel ranges whose lengths are multiples of this keep the register tiles whole.
inline constexpr std::size_t kConvF32PixelGrain = 12;

/// The family's entry points for one target.
struct ConvF32 {
  /// Output channels per packed panel this target's kernel wants for out_c channels.
  std::size_t (*panel_width)(std::size_t out_c);
  /// out[b, oy, ox, oc] = clamp(bias[oc] + sum over taps (fy, fx) inside the input and c <
  /// in_c of in[b, oy*sh - pad_top + fy*dh, ox*sw - pad_left + fx*dw, c] * filter[oc, fy, fx, c]).
  /// The additions may be reordered (see the -inl file).
  void (*run)(const ConvF32Args& args);
};

/// Floats of the packed weights (panels and the zero row), or 0 when that overflows.
inline std::size_t conv_f32_packed_floats(std::size_t out_c, std::size_t k, std::size_t nr, std::size_t in_c) noexcept {
  if (nr == 0) return 0;
  const std::size_t panels = (out_c + nr - 1) / nr;
  std::size_t per = 0, all = 0, total = 0;
  if (__builtin_mul_overflow(k + 1, nr, &per) || __builtin_mul_overflow(per, panels, &all) ||
      __builtin_add_overflow(all, in_c, &total))
    return 0;
  return total;
}

/// Packs filter [out_c, K] and bias [out_c] (bias may be nullptr: zeros) into `dst`
/// (conv_f32_packed_floats(out_c, k, nr, in_c) floats), zero row included.
inline void conv_f32_pack(const float* filter, const float* bias, std::size_t out_c, std::size_t k, std::size_t nr,
                          std::size_t in_c, float* dst) noexcept {
  const std::size_t panels = (out_c + nr - 1) / nr;
  for (std::size_t j = 0; j < panels; ++j) {
    float* p = dst + j * (k + 1) * nr;
    for (std::size_t c = 0; c < nr; ++c) {
      const std::size_t oc = j * nr + c;
      p[c] = oc < out_c && bias != nullptr ? bias[oc] : 0.0f;
    }
    p += nr;
    for (std::size_t i = 0; i < k; ++i)
      for (std::size_t c = 0; c < nr; ++c) {
        const std::size_t oc = j * nr + c;
        p[i * nr + c] = oc < out_c ? filter[oc * k + i] : 0.0f;
      }
  }
  std::memset(dst + panels * (k + 1) * nr, 0, in_c * sizeof(float));
}

}  // namespace nnhal::simd

#define NNHAL_SIMD_FAMILY_INL "nnhal/simd/conv_f32-inl.h"
#include "nnhal/simd/foreach_target-inl.h"
#undef NNHAL_SIMD_FAMILY_INL

namespace nnhal::simd {

/// The family's entry points compiled for `target` (default: the one this process runs).
inline const ConvF32& conv_f32_table(std::int64_t target = chosen_target()) noexcept {
  static constexpr PerTarget<ConvF32> kTables[] = NNHAL_SIMD_PER_TARGET(kConvF32);
  return pick(kTables, target);
}

}  // namespace nnhal::simd
