#pragma once
/// \file
/// SIMD family: the FLOAT32 DEPTHWISE_CONV_2D kernel for NHWC data and a depth multiplier of 1,
/// vectorized over channels, compiled for every target (nnhal/simd/dispatch.hpp). The
/// per-target code and its accuracy (it uses fused multiply-adds and starts from the bias, so
/// it rounds differently from the scalar reference) are described in
/// nnhal/simd/depthwise_f32-inl.h.

#include <cstddef>
#include <cstdint>

#include "nnhal/simd/dispatch.hpp"

namespace nnhal::simd {

/// One depthwise convolution, NHWC, multiplier 1 (channels in = channels out = `channels`).
/// `in` is [batch, in_h, in_w, channels], `filter` [filter_h, filter_w, channels], `bias`
/// [channels], `out` [batch, out_h, out_w, channels]. Taps outside the input (padding) add
/// nothing. The caller guarantees that the geometry is consistent (out sizes from the window
/// rules, pad_top / pad_left < effective filter sizes) and that `out` does not overlap inputs.
struct DepthwiseF32Args {
  const float* in;
  const float* filter;
  const float* bias;
  float* out;
  std::size_t batch, in_h, in_w, channels, out_h, out_w, filter_h, filter_w;
  std::int64_t stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left;
  float act_min, act_max;
  /// Output rows [row_begin, row_end) of every image only (the end clamped to out_h): a piece
  /// of the run for a thread; a row's values do not depend on the range.
  std::size_t row_begin, row_end;
};

/// The family's entry points for one target.
struct DepthwiseF32 {
  /// out[b, y, x, c] = clamp(bias[c] + sum over valid (ky, kx) of in[b, iy, ix, c] *
  /// filter[ky, kx, c]), iy = y * stride_h - pad_top + ky * dilation_h (ix likewise), clamp as
  /// the reference (`r < act_min ? act_min : (r > act_max ? act_max : r)`).
  void (*run)(const DepthwiseF32Args& a);
};

}  // namespace nnhal::simd

#define NNHAL_SIMD_FAMILY_INL "nnhal/simd/depthwise_f32-inl.h"
#include "nnhal/simd/foreach_target-inl.h"
#undef NNHAL_SIMD_FAMILY_INL

namespace nnhal::simd {

/// The family's entry points compiled for `target` (default: the one this process runs).
inline const DepthwiseF32& depthwise_f32_table(std::int64_t target = chosen_target()) noexcept {
  static constexpr PerTarget<DepthwiseF32> kTables[] = NNHAL_SIMD_PER_TARGET(kDepthwiseF32);
  return pick(kTables, target);
}

/// DepthwiseF32::run of the target this process runs.
inline void depthwise_f32(const DepthwiseF32Args& a) noexcept { depthwise_f32_table().run(a); }

}  // namespace nnhal::simd
