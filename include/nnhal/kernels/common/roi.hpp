#pragma once
/// \file
/// Helpers shared by the region operations (ROI_ALIGN, ROI_POOLING, BOX_WITH_NMS_LIMIT,
/// AXIS_ALIGNED_BBOX_TRANSFORM): element <-> float conversions of their data and box operands,
/// and the box-type facts of their signatures.
///
/// Boxes are [x1, y1, x2, y2]. They are of the data type for FLOAT32 / FLOAT16 and
/// TENSOR_QUANT16_ASYMM (scale 0.125, zero point 0) for the 8-bit data types.

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#include "nnhal/core/half.hpp"
#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/window.hpp"

namespace nnhal::kernels::roi {

/// The box operand type used with data type T.
template <OperandType T>
inline constexpr OperandType kBoxType =
    (T == OperandType::TENSOR_QUANT8_ASYMM || T == OperandType::TENSOR_QUANT8_ASYMM_SIGNED)
        ? OperandType::TENSOR_QUANT16_ASYMM
        : T;

/// True for the 8-bit data types.
template <OperandType T>
inline constexpr bool kQuantized = kBoxType<T> == OperandType::TENSOR_QUANT16_ASYMM;

/// The float scalar type of data type T's parameters (FLOAT16 for FLOAT16, else FLOAT32).
template <OperandType T>
inline constexpr OperandType kFloatScalar =
    T == OperandType::TENSOR_FLOAT16 ? OperandType::FLOAT16 : OperandType::FLOAT32;

/// Value of float scalar input i (FLOAT16 widened to float).
template <OperandType T>
inline float float_scalar(const NodeIO& io, std::size_t i) noexcept {
  if constexpr (T == OperandType::TENSOR_FLOAT16)
    return static_cast<float>(io.scalar<OperandType::FLOAT16>(i));
  else
    return io.scalar<OperandType::FLOAT32>(i);
}

/// An element of a float or quantized operand (scale, zero point) as float.
template <class E>
inline float to_float(E v, float scale, std::int32_t zero_point) noexcept {
  if constexpr (std::is_same_v<E, float>)
    return v;
  else if constexpr (std::is_same_v<E, Half>)
    return static_cast<float>(v);
  else
    return static_cast<float>(static_cast<std::int32_t>(v) - zero_point) * scale;
}

/// A float stored as E: float / Half directly, an integer type as round(v / scale + zero_point)
/// clamped to its range (the reference's conversion of results to quantized storage).
template <class E>
inline E from_float(float v, float scale, std::int32_t zero_point) noexcept {
  if constexpr (std::is_same_v<E, float>) {
    return v;
  } else if constexpr (std::is_same_v<E, Half>) {
    return Half(v);
  } else {
    const float r = std::round(v / scale + static_cast<float>(zero_point));
    constexpr float lo = std::numeric_limits<E>::lowest(), hi = std::numeric_limits<E>::max();
    if (!(r >= lo)) return static_cast<E>(lo);  // also NaN
    if (r > hi) return static_cast<E>(hi);
    return static_cast<E>(r);
  }
}

/// Checks that box input `i` of an 8-bit node has the fixed quantization (scale 0.125, zero
/// point 0) the reference requires. `op` names the operation.
inline Status check_box_quant(const RtOperand& box, const char* op, const char* what) {
  if (box.type != OperandType::TENSOR_QUANT16_ASYMM) return {};
  if (box.scale != 0.125f || box.zero_point != 0)
    return NNHAL_INVALID("%s %s must have scale 0.125 and zero point 0 (has %g, %" PRId32 ")", op,
                         what, static_cast<double>(box.scale), box.zero_point);
  return {};
}

/// The scalars ROI_ALIGN and ROI_POOLING share: the output height and width (inputs 3 and 4),
/// the height and width ratios of the boxes to the input (5 and 6) and the layout flag.
struct PooledParams {
  std::int32_t out_h = 0, out_w = 0;
  float h_ratio = 0, w_ratio = 0;
  bool nchw = false;
};

/// Reads and checks PooledParams (the layout flag is input `layout_input`). `op` names the
/// operation.
template <OperandType T>
inline Expected<PooledParams> read_pooled_params(const NodeIO& io, std::size_t layout_input, const char* op) {
  PooledParams p;
  p.out_h = io.scalar<OperandType::INT32>(3);
  p.out_w = io.scalar<OperandType::INT32>(4);
  p.h_ratio = float_scalar<T>(io, 5);
  p.w_ratio = float_scalar<T>(io, 6);
  p.nchw = layout_nchw(io, layout_input);
  if (p.out_h <= 0 || p.out_w <= 0)
    return NNHAL_INVALID("%s output size %" PRId32 " x %" PRId32 " is not positive", op, p.out_h,
                         p.out_w);
  if (!(p.h_ratio > 0) || !(p.w_ratio > 0) || !std::isfinite(p.h_ratio) || !std::isfinite(p.w_ratio))
    return NNHAL_INVALID("%s ratios %g, %g must be positive and finite", op, static_cast<double>(p.h_ratio),
                         static_cast<double>(p.w_ratio));
  return p;
}

/// Shape inference of ROI_ALIGN and ROI_POOLING: checks the input (rank 4, no empty dimension),
/// rois ([num_rois, 4], box quantization) and batch_index ([num_rois]) and sets the output to
/// [num_rois, out_h, out_w, depth] in the input's layout.
inline Status infer_pooled(const NodeIO& io, const PooledParams& p, const char* op) {
  const Dims& d = io.input(0).dims;
  const RtOperand& rois = io.input(1);
  const RtOperand& batch = io.input(2);
  if (d.rank() != 4) return NNHAL_INVALID("%s input has rank %zu, expected 4", op, d.rank());
  if (rois.dims.rank() != 2 || rois.dims[1] != 4) return NNHAL_INVALID("%s rois must have shape [num_rois, 4]", op);
  if (batch.dims.rank() != 1 || batch.dims[0] != rois.dims[0])
    return NNHAL_INVALID("%s batch_index must have shape [num_rois]", op);
  NNHAL_TRY(check_box_quant(rois, op, "rois"));
  const window::Image im = window::Image::of(d, p.nchw);
  if (im.n == 0 || im.h == 0 || im.w == 0 || im.c == 0)
    return NNHAL_INVALID("%s input has an empty dimension (%" PRIu32 " x %" PRIu32 " x %" PRIu32
                         " x %" PRIu32 ")",
                         op, im.n, im.h, im.w, im.c);
  return set_output(io, 0,
                    window::Image::dims(p.nchw, rois.dims[0], static_cast<std::uint32_t>(p.out_h),
                                        static_cast<std::uint32_t>(p.out_w), im.c));
}

/// Hard non-max suppression in place over the indices [start, end), as the reference's
/// hardNmsSingleClass: repeatedly the first index of highest `score` is swapped to the front and
/// kept, and every later one whose box has `iou(box(i), box(kept))` >= `iou_threshold` is swapped
/// with the last and dropped (the swapped-in index is examined next); at most `limit` are kept.
/// Returns the end of the kept range (GENERATE_PROPOSALS, DETECTION_POSTPROCESSING).
template <class Box, class Iou>
std::uint32_t* hard_nms(std::uint32_t* start, std::uint32_t* end, const float* score, float iou_threshold,
                        std::size_t limit, Box box, Iou iou) noexcept {
  std::size_t kept = 0;
  while (start < end && kept < limit) {
    std::uint32_t* best = start;
    for (std::uint32_t* q = start + 1; q < end; ++q)
      if (score[*best] < score[*q]) best = q;
    std::swap(*best, *start);
    const float* kb = box(*start);
    for (std::uint32_t* q = start + 1; q < end; ++q) {
      if (iou(box(*q), kb) >= iou_threshold) {
        std::swap(*q, *(end - 1));
        --end;
        --q;
      }
    }
    ++start;
    ++kept;
  }
  return start;
}

}  // namespace nnhal::kernels::roi
