#pragma once
/// \file
/// SIMD family: 2-D pooling of NHWC images across channels (AVERAGE_POOL_2D, MAX_POOL_2D,
/// L2_POOL_2D), compiled for every target (nnhal/simd/dispatch.hpp). Each output pixel's
/// channels are computed a vector at a time over the pixel's window, so every input row is
/// read in contiguous runs of the channel dimension. Results equal the plain kernels of
/// nnhal/kernels/common/pool.hpp bit for bit (float32 max and average, 8-bit max and average);
/// float32 L2 equals them up to the rounding of the squares' sum (see the -inl file).

#include <cstddef>
#include <cstdint>

#include "nnhal/simd/dispatch.hpp"

namespace nnhal::simd {

/// The geometry of one pooling over NHWC images: input [batches, in_h, in_w, channels], output
/// [batches, out_h, out_w, channels]; output (oy, ox)'s window starts at input row
/// oy * stride_h - pad_top and column ox * stride_w - pad_left and is filter_h x filter_w,
/// clipped to the input. Every clipped window must hold at least one element.
struct PoolArgs {
  std::size_t batches = 0, in_h = 0, in_w = 0, channels = 0, out_h = 0, out_w = 0;
  std::int64_t stride_h = 1, stride_w = 1, filter_h = 1, filter_w = 1, pad_top = 0, pad_left = 0;
};

/// The family's entry points for one target. Float results are clamped to [lo, hi], 8-bit ones
/// to [lo, hi] (the fused activation's range).
struct Pool {
  /// Maximum (`v > m ? v : m` from the lowest float, per lane in window order).
  void (*max_f32)(const PoolArgs&, const float* in, float* out, float lo, float hi);
  /// Sum in window order divided by the number of window elements.
  void (*avg_f32)(const PoolArgs&, const float* in, float* out, float lo, float hi);
  /// sqrt(sum of squares / number of window elements).
  void (*l2_f32)(const PoolArgs&, const float* in, float* out, float lo, float hi);
  /// Exact 8-bit maximum.
  void (*max_u8)(const PoolArgs&, const std::uint8_t* in, std::uint8_t* out, std::int32_t lo, std::int32_t hi);
  void (*max_i8)(const PoolArgs&, const std::int8_t* in, std::int8_t* out, std::int32_t lo, std::int32_t hi);
  /// Exact 8-bit average: the integer sum divided by the count, rounded half away from zero.
  void (*avg_u8)(const PoolArgs&, const std::uint8_t* in, std::uint8_t* out, std::int32_t lo, std::int32_t hi);
  void (*avg_i8)(const PoolArgs&, const std::int8_t* in, std::int8_t* out, std::int32_t lo, std::int32_t hi);
};

}  // namespace nnhal::simd

#define NNHAL_SIMD_FAMILY_INL "nnhal/simd/pool-inl.h"
#include "nnhal/simd/foreach_target-inl.h"
#undef NNHAL_SIMD_FAMILY_INL

namespace nnhal::simd {

/// The family's entry points compiled for `target` (default: the one this process runs).
inline const Pool& pool(std::int64_t target = chosen_target()) noexcept {
  static constexpr PerTarget<Pool> kTables[] = NNHAL_SIMD_PER_TARGET(kPool);
  return pick(kTables, target);
}

}  // namespace nnhal::simd
