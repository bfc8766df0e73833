#pragma once
/// \file
/// ROI_POOLING kernels (the row: nnhal/ops/roi_pooling.hpp): max pooling of each region of
/// interest of a 4-D feature map, scaled by 1 / ratio, over an output_height x output_width grid.
///
/// Numerics as the reference (NNAPI RoiPooling.cpp): 16-bit boxes are first converted to float
/// (q * 0.125); start / end = int(round(box * (1 / ratio))); size = max(end - start + 1, 1) as
/// float; step = size / out; bin (i, j) covers rows [floor(step * i + hStart), ceil(step * (i +
/// 1) + hStart)) and the columns likewise, each bound clamped to the image; the result is the
/// largest element of the bin, or for an empty bin the input's zero point (0 for float). FLOAT16
/// is computed in float (the reference computes the bin bounds in half precision).
///
/// The reference's runtime checks: rank 4, boxes [num_rois, 4], batch index [num_rois], output
/// size > 0, ratios > 0; per ROI the batch index in range, coordinates >= 0, scaled coordinates
/// within the image, x1 <= x2 and y1 <= y2 (a NaN fails these). nnhal also refuses non-finite
/// ratios and empty images.

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/roi.hpp"
#include "nnhal/kernels/common/window.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/roi_pooling.hpp"

namespace nnhal::kernels::roi_pooling {

inline constexpr const char* kName = "ROI_POOLING";

/// The scalars of a ROI_POOLING node (all shared with ROI_ALIGN).
using Params = roi::PooledParams;

template <OperandType T>
inline Expected<Params> read_params(const NodeIO& io) {
  return roi::read_pooled_params<T>(io, 7, kName);
}

/// Output shape [num_rois, out_h, out_w, depth] in the input's layout.
template <OperandType T>
inline Status infer(const NodeIO& io) {
  auto p = read_params<T>(io);
  if (!p) return std::move(p.error());
  return roi::infer_pooled(io, *p, kName);
}

/// A bin bound: floor / ceil of v as uint32 (v >= 0 here), clamped to `limit`.
inline std::uint32_t clamp_bound(float v, std::uint32_t limit) noexcept {
  if (!(v >= 0)) return 0;
  if (v >= static_cast<float>(limit)) return limit;
  return static_cast<std::uint32_t>(v);
}

template <OperandType T>
Status kernel(const NodeIO& io) {
  using E = element_t<T>;
  constexpr OperandType B = roi::kBoxType<T>;
  const RtOperand& in = io.input(0);
  const RtOperand& out = io.output(0);
  if (out.dims.element_count() == 0) return {};
  auto pe = read_params<T>(io);
  if (!pe) return std::move(pe.error());
  const Params& p = *pe;
  const window::Image si = window::Image::of(in.dims, p.nchw);
  const window::Image so = window::Image::of(out.dims, p.nchw);
  const std::size_t num_rois = io.input(1).dims[0];
  if (so.n != num_rois || so.c != si.c || so.h != static_cast<std::uint32_t>(p.out_h) ||
      so.w != static_cast<std::uint32_t>(p.out_w))
    return NNHAL_FAILURE("%s output shape does not match its inputs", kName);
  const E* data = io.in_data<T>(0);
  E* dst = io.out_data<T>(0);
  const element_t<B>* boxes = io.in_data<B>(1);
  const RtOperand& bx = io.input(1);
  const std::int32_t* batch = io.in_data<OperandType::TENSOR_INT32>(2);
  const float h_scale = 1.0f / p.h_ratio, w_scale = 1.0f / p.w_ratio;
  const auto W = static_cast<float>(si.w), H = static_cast<float>(si.h);
  E empty{};
  if constexpr (roi::kQuantized<T>) empty = static_cast<E>(in.zero_point);
  for (std::size_t r = 0; r < num_rois; ++r) {
    if (batch[r] < 0 || static_cast<std::uint32_t>(batch[r]) >= si.n)
      return NNHAL_INVALID("%s roi %zu has batch index %" PRId32 ", outside [0, %" PRIu32 ")",
                           kName, r, batch[r], si.n);
    float b[4];
    for (int k = 0; k < 4; ++k) b[k] = roi::to_float(boxes[r * 4 + k], bx.scale, bx.zero_point);
    if (!(b[0] >= 0) || !(b[1] >= 0) || !(b[2] >= 0) || !(b[3] >= 0))
      return NNHAL_INVALID("%s roi %zu has a negative or NaN coordinate", kName, r);
    if (!(b[0] * w_scale <= W) || !(b[1] * h_scale <= H) || !(b[2] * w_scale <= W) || !(b[3] * h_scale <= H))
      return NNHAL_INVALID("%s roi %zu lies outside the %" PRIu32 " x %" PRIu32 " input", kName, r,
                           si.h, si.w);
    if (!(b[0] <= b[2]) || !(b[1] <= b[3])) return NNHAL_INVALID("%s roi %zu is inverted", kName, r);
    // Scaled coordinates are within [0, image size], so these conversions are defined.
    const auto ws = static_cast<std::int32_t>(std::round(b[0] * w_scale));
    const auto hs = static_cast<std::int32_t>(std::round(b[1] * h_scale));
    const auto we = static_cast<std::int32_t>(std::round(b[2] * w_scale));
    const auto he = static_cast<std::int32_t>(std::round(b[3] * h_scale));
    const auto roi_w = static_cast<float>(std::max<std::int32_t>(we - ws + 1, 1));
    const auto roi_h = static_cast<float>(std::max<std::int32_t>(he - hs + 1, 1));
    const float w_step = roi_w / static_cast<float>(so.w), h_step = roi_h / static_cast<float>(so.h);
    const E* base = data + si.at(static_cast<std::size_t>(batch[r]), 0, 0, 0);
    for (std::uint32_t i = 0; i < so.h; ++i) {
      const std::uint32_t h0 = clamp_bound(std::floor(h_step * static_cast<float>(i) + static_cast<float>(hs)), si.h);
      const std::uint32_t h1 = clamp_bound(std::ceil(h_step * static_cast<float>(i + 1) + static_cast<float>(hs)), si.h);
      for (std::uint32_t j = 0; j < so.w; ++j) {
        const std::uint32_t w0 = clamp_bound(std::floor(w_step * static_cast<float>(j) + static_cast<float>(ws)), si.w);
        const std::uint32_t w1 =
            clamp_bound(std::ceil(w_step * static_cast<float>(j + 1) + static_cast<float>(ws)), si.w);
        E* o = dst + so.at(r, i, j, 0);
        for (std::uint32_t k = 0; k < si.c; ++k) {
          E best = empty;
          bool first = true;
          for (std::uint32_t y = h0; y < h1; ++y) {
            for (std::uint32_t x = w0; x < w1; ++x) {
              const E v = base[si.at(0, y, x, k)];
              if (first || roi::to_float(v, 1, 0) > roi::to_float(best, 1, 0)) {
                best = v;
                first = false;
              }
            }
          }
          o[k * so.sc] = best;
        }
      }
    }
  }
  return {};
}

/// ROI_POOLING's kernels, keyed by the feature map's type.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                                    OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_ASYMM_SIGNED};

  static Status infer(const NodeIO& io) {
    switch (io.input(0).type) {
      case OperandType::TENSOR_FLOAT16: return roi_pooling::infer<OperandType::TENSOR_FLOAT16>(io);
      default: return roi_pooling::infer<OperandType::TENSOR_FLOAT32>(io);
    }
  }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &kernel<T>;
  }
};

}  // namespace nnhal::kernels::roi_pooling

namespace nnhal {

template <>
struct Kernels<OperationType::ROI_POOLING> : kernels::roi_pooling::Family {};
static_assert(kernels_cover_row<OperationType::ROI_POOLING>());

}  // namespace nnhal
