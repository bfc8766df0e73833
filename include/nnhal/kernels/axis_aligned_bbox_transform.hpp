#pragma once
/// \file
/// AXIS_ALIGNED_BBOX_TRANSFORM kernels (the row: nnhal/ops/axis_aligned_bbox_transform.hpp):
/// per-class deltas (dx, dy, dw, dh) applied to each ROI, the result clipped to its image.
///
/// Numerics as the reference (NNAPI GenerateProposals.cpp), in float (FLOAT16 and the
/// quantized operands converted to float first: 16-bit as q * scale, deltas as (q - zero point)
/// * scale): the ROI as centre form w = x2 - x1, h = y2 - y1, cx = (x1 + x2) / 2, cy = (y1 + y2)
/// / 2; the new box has w' = exp(dw) * w, h' = exp(dh) * h, cx' = cx + dx * w, cy' = cy + dy * h
/// and corners cx' -+ w' / 2, cy' -+ h' / 2, each clamped to [0, image width / height] (image
/// info is (height, width) per batch). A 16-bit output is round(v / 0.125), clamped (the
/// reference sets the output's quantization to scale 0.125, zero point 0 whatever is declared).
/// The reference's runtime checks: ranks, shapes, 16-bit ROI / image info scale 0.125 and zero
/// point 0; per ROI the batch index in range and x1 < x2, y1 < y2 (a NaN fails these).

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/roi.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/axis_aligned_bbox_transform.hpp"

namespace nnhal::kernels::axis_aligned_bbox_transform {

inline constexpr const char* kName = "AXIS_ALIGNED_BBOX_TRANSFORM";

/// Output shape: the deltas' shape [num_rois, num_classes * 4].
inline Status infer(const NodeIO& io) {
  const RtOperand& rois = io.input(0);
  const RtOperand& deltas = io.input(1);
  const RtOperand& batch = io.input(2);
  const RtOperand& info = io.input(3);
  if (rois.dims.rank() != 2 || rois.dims[1] != 4) return NNHAL_INVALID("%s rois must have shape [num_rois, 4]", kName);
  if (deltas.dims.rank() != 2 || deltas.dims[0] != rois.dims[0] || deltas.dims[1] % 4 != 0)
    return NNHAL_INVALID("%s deltas must have shape [num_rois, num_classes * 4]", kName);
  if (batch.dims.rank() != 1 || batch.dims[0] != rois.dims[0])
    return NNHAL_INVALID("%s batch_index must have shape [num_rois]", kName);
  if (info.dims.rank() != 2 || info.dims[1] != 2)
    return NNHAL_INVALID("%s image_info must have shape [batches, 2]", kName);
  NNHAL_TRY(roi::check_box_quant(rois, kName, "rois"));
  NNHAL_TRY(roi::check_box_quant(info, kName, "image_info"));
  return set_output(io, 0, Dims{deltas.dims[0], deltas.dims[1]});
}

/// The kernel for ROI type R with deltas of type D.
template <OperandType R, OperandType D>
Status run(const NodeIO& io) {
  using RE = element_t<R>;
  using DE = element_t<D>;
  const RtOperand& rois = io.input(0);
  const RtOperand& deltas = io.input(1);
  const RtOperand& info = io.input(3);
  const RtOperand& out = io.output(0);
  const std::size_t num_rois = rois.dims[0];
  const std::size_t classes = deltas.dims[1] / 4;
  const std::size_t batches = info.dims[0];
  if (out.dims.rank() != 2 || out.dims[0] != num_rois || out.dims[1] != deltas.dims[1])
    return NNHAL_FAILURE("%s output shape does not match its inputs", kName);
  if (num_rois == 0 || classes == 0) return {};
  const RE* r = io.in_data<R>(0);
  const DE* d = io.in_data<D>(1);
  const std::int32_t* batch = io.in_data<OperandType::TENSOR_INT32>(2);
  const RE* im = io.in_data<R>(3);
  RE* o = io.out_data<R>(0);
  for (std::size_t n = 0; n < num_rois; ++n) {
    const std::int32_t b = batch[n];
    if (b < 0 || static_cast<std::size_t>(b) >= batches)
      return NNHAL_INVALID("%s roi %zu has batch index %" PRId32 ", outside [0, %zu)", kName, n, b,
                           batches);
    float box[4];
    for (int k = 0; k < 4; ++k) box[k] = roi::to_float(r[n * 4 + k], rois.scale, rois.zero_point);
    if (!(box[0] < box[2]) || !(box[1] < box[3])) return NNHAL_INVALID("%s roi %zu is empty or inverted", kName, n);
    const float height = roi::to_float(im[static_cast<std::size_t>(b) * 2], info.scale, info.zero_point);
    const float width = roi::to_float(im[static_cast<std::size_t>(b) * 2 + 1], info.scale, info.zero_point);
    const float w = box[2] - box[0], h = box[3] - box[1];
    const float cx = (box[0] + box[2]) / 2, cy = (box[1] + box[3]) / 2;
    for (std::size_t c = 0; c < classes; ++c) {
      const std::size_t at = (n * classes + c) * 4;
      const float dx = roi::to_float(d[at], deltas.scale, deltas.zero_point);
      const float dy = roi::to_float(d[at + 1], deltas.scale, deltas.zero_point);
      const float dw = roi::to_float(d[at + 2], deltas.scale, deltas.zero_point);
      const float dh = roi::to_float(d[at + 3], deltas.scale, deltas.zero_point);
      const float nw = std::exp(dw) * w, nh = std::exp(dh) * h;
      const float nx = cx + dx * w, ny = cy + dy * h;
      const float res[4] = {nx - nw / 2, ny - nh / 2, nx + nw / 2, ny + nh / 2};
      for (int k = 0; k < 4; ++k) {
        const float limit = (k % 2 == 0) ? width : height;
        const float v = std::min(std::max(res[k], 0.0f), limit);
        o[at + static_cast<std::size_t>(k)] = roi::from_float<RE>(v, 0.125f, 0);
      }
    }
  }
  return {};
}

template <OperandType R>
Status kernel(const NodeIO& io) {
  if constexpr (R == OperandType::TENSOR_QUANT16_ASYMM) {
    if (io.input(1).type == OperandType::TENSOR_QUANT8_ASYMM_SIGNED)
      return run<R, OperandType::TENSOR_QUANT8_ASYMM_SIGNED>(io);
    return run<R, OperandType::TENSOR_QUANT8_ASYMM>(io);
  } else {
    return run<R, R>(io);
  }
}

/// AXIS_ALIGNED_BBOX_TRANSFORM's kernels, keyed by the ROIs' type.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                                    OperandType::TENSOR_QUANT16_ASYMM};

  static Status infer(const NodeIO& io) { return axis_aligned_bbox_transform::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &kernel<T>;
  }
};

}  // namespace nnhal::kernels::axis_aligned_bbox_transform

namespace nnhal {

template <>
struct Kernels<OperationType::AXIS_ALIGNED_BBOX_TRANSFORM> : kernels::axis_aligned_bbox_transform::Family {};
static_assert(kernels_cover_row<OperationType::AXIS_ALIGNED_BBOX_TRANSFORM>());

}  // namespace nnhal
