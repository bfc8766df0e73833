#pragma once
/// \file
/// SIMD family: the 8-bit DEPTHWISE_CONV_2D kernel for NHWC data and a depth multiplier of 1,
/// vectorized over channels in int32 lanes, compiled for every target
/// (nnhal/simd/dispatch.hpp). It gives the reference's results bit for bit (integer sums, the
/// same rescaling per lane); the per-target code is in nnhal/simd/depthwise_q8-inl.h.

#include <cstddef>
#include <cstdint>

#include "nnhal/simd/dispatch.hpp"

namespace nnhal::simd {

/// One depthwise convolution, NHWC, multiplier 1: `in` [batch, in_h, in_w, channels] of E,
/// `filter` [filter_h, filter_w, channels] of F, `bias` [channels], `out` [batch, out_h, out_w,
/// channels] of E. Per channel c the rescaling is TFLite's MultiplyByQuantizedMultiplier with
/// multiplier[c], a left shift left_shift[c] >= 0 and a rounding right shift right_shift[c] >= 0
/// (at most one of them non-zero; multiplier[c] != INT32_MIN). Geometry as DepthwiseF32Args.
struct DepthwiseQ8Args {
  const void* in;
  const void* filter;
  const std::int32_t* bias;
  void* out;
  std::size_t batch, in_h, in_w, channels, out_h, out_w, filter_h, filter_w;
  std::int64_t stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left;
  std::int32_t input_offset, filter_offset, output_offset, act_min, act_max;
  const std::int32_t* multiplier;
  const std::int32_t* left_shift;
  const std::int32_t* right_shift;
  /// Output rows [row_begin, row_end) of every image only (the end clamped to out_h): a piece of
  /// the run for a thread; a row's values do not depend on the range.
  std::size_t row_begin, row_end;
};

/// The family's entry points for one target: out = clamp(rescale(bias[c] + sum over the taps
/// inside the input of (x + input_offset) * (w + filter_offset)) + output_offset), the sum
/// wrapping in int32.
struct DepthwiseQ8 {
  void (*u8)(const DepthwiseQ8Args& a);     ///< uint8 input / output, uint8 filter
  void (*u8_s8)(const DepthwiseQ8Args& a);  ///< uint8 input / output, int8 (per-channel) filter
  void (*s8)(const DepthwiseQ8Args& a);     ///< int8 input / output, int8 filter
};

}  // namespace nnhal::simd

#define NNHAL_SIMD_FAMILY_INL "nnhal/simd/depthwise_q8-inl.h"
#include "nnhal/simd/foreach_target-inl.h"
#undef NNHAL_SIMD_FAMILY_INL

namespace nnhal::simd {

/// The family's entry points compiled for `target` (default: the one this process runs).
inline const DepthwiseQ8& depthwise_q8_table(std::int64_t target = chosen_target()) noexcept {
  static constexpr PerTarget<DepthwiseQ8> kTables[] = NNHAL_SIMD_PER_TARGET(kDepthwiseQ8);
  return pick(kTables, target);
}

}  // namespace nnhal::simd
