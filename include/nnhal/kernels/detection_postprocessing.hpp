#pragma once
/// \file
/// DETECTION_POSTPROCESSING kernels (the row: nnhal/ops/detection_postprocessing.hpp): SSD box
/// decoding of the anchors, then regular (per class) or fast (per anchor) hard non-max
/// suppression, padded with zeros to a fixed number of detections per image.
///
/// The algorithm of the reference (NNAPI GenerateProposals.cpp, detection_postprocess), in
/// float (FLOAT16 widened first and the results narrowed back):
///  - Box of anchor a (ctr_y, ctr_x, h, w) with deltas (dy, dx, dh, dw, ...): centre
///    (ctr_y + h * dy / scale_y, ctr_x + w * dx / scale_x), half extents h * exp(dh / scale_h) *
///    0.5 and w * exp(dw / scale_w) * 0.5; written (y1, x1, y2, x2). Deltas beyond the first
///    four are ignored.
///  - Regular NMS: for each class c >= 1 in order, the anchors whose score > score_threshold, in
///    order, reduced by hard NMS (the first of highest score kept, others with IoU >= the
///    threshold dropped by a swap with the last) to at most max_detections_per_class; all kept
///    sorted by score, descending, and cut to max_num_detections. Outputs in that order.
///  - Fast NMS: each anchor's best score over classes >= 1; the anchors whose best > the
///    threshold, hard NMS on the best scores to at most max_num_detections; per kept anchor its
///    min(classes - 1, max_classes_per_detection) best classes by score, descending.
///  - The class written is the class index minus 1 unless include_background; num_detections is
///    the number written; the rest of each image's rows is zero.
/// The reference sorts with std::sort; nnhal sorts stably (equal scores keep index order).
/// The IoU is box_with_nms_limit::iou on (y1, x1, y2, x2) boxes (symmetric in the two axes).
/// Runtime checks, as the reference: scales > 0, score and IoU thresholds >= 0 (NaN fails),
/// more than one class, at least 4 deltas per anchor, max_num_detections > 0, and
/// max_detections_per_class > 0 (regular) or max_classes_per_detection > 0 (fast); nnhal's
/// own: anchors finite with non-negative extents. Scratch, planned at prepare from the shapes:
/// 4 * (5 * anchors + 3 * anchors * classes + 2 * classes) bytes.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/box_with_nms_limit.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/roi.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/detection_postprocessing.hpp"

namespace nnhal::kernels::detection_postprocessing {

inline constexpr const char* kName = "DETECTION_POSTPROCESSING";

/// What prepare recorded: the scratch bytes planned.
struct Planned {
  std::uint64_t workspace_bytes = 0;
};

/// The scalars.
struct Params {
  float scale_y = 0, scale_x = 0, scale_h = 0, scale_w = 0, score_threshold = 0, iou_threshold = 0;
  std::int32_t max_detections = 0, max_classes = 0, max_per_class = 0;
  bool regular = false, background = false;
  std::uint32_t out_per_image = 0;  ///< rows per image in the outputs
};

/// The shapes.
struct Shape {
  std::uint32_t batches = 0, anchors = 0, classes = 0, box_length = 0;
};

template <OperandType T>
inline Expected<Params> read_params(const NodeIO& io) {
  Params p;
  p.scale_y = roi::float_scalar<T>(io, 3);
  p.scale_x = roi::float_scalar<T>(io, 4);
  p.scale_h = roi::float_scalar<T>(io, 5);
  p.scale_w = roi::float_scalar<T>(io, 6);
  p.regular = io.scalar<OperandType::BOOL>(7) != 0;
  p.max_detections = io.scalar<OperandType::INT32>(8);
  p.max_classes = io.scalar<OperandType::INT32>(9);
  p.max_per_class = io.scalar<OperandType::INT32>(10);
  p.score_threshold = roi::float_scalar<T>(io, 11);
  p.iou_threshold = roi::float_scalar<T>(io, 12);
  p.background = io.scalar<OperandType::BOOL>(13) != 0;
  if (!(p.scale_y > 0) || !(p.scale_x > 0) || !(p.scale_h > 0) || !(p.scale_w > 0))
    return NNHAL_INVALID("%s scales must be positive", kName);
  if (!(p.score_threshold >= 0)) return NNHAL_INVALID("%s score_threshold must be >= 0", kName);
  if (!(p.iou_threshold >= 0)) return NNHAL_INVALID("%s iou_threshold must be >= 0", kName);
  if (p.max_detections <= 0)
    return NNHAL_INVALID("%s max_num_detections %" PRId32 " must be positive", kName,
                         p.max_detections);
  std::uint64_t rows = static_cast<std::uint64_t>(p.max_detections);
  if (p.regular) {
    if (p.max_per_class <= 0)
      return NNHAL_INVALID("%s max_detections_per_class %" PRId32 " must be positive", kName,
                           p.max_per_class);
  } else {
    if (p.max_classes <= 0)
      return NNHAL_INVALID("%s max_classes_per_detection %" PRId32 " must be positive", kName,
                           p.max_classes);
    rows *= static_cast<std::uint64_t>(p.max_classes);
  }
  if (rows > UINT32_MAX) return NNHAL_INVALID("%s: the number of detections overflows", kName);
  p.out_per_image = static_cast<std::uint32_t>(rows);
  return p;
}

inline Expected<Shape> read_shape(const NodeIO& io) {
  const Dims& s = io.input(0).dims;
  const Dims& d = io.input(1).dims;
  const Dims& a = io.input(2).dims;
  if (s.rank() != 3 || d.rank() != 3 || a.rank() != 2)
    return NNHAL_INVALID("%s scores and box_deltas must have rank 3, anchors rank 2", kName);
  Shape g{s[0], s[1], s[2], d[2]};
  if (d[0] != g.batches || d[1] != g.anchors)
    return NNHAL_INVALID("%s box_deltas must be [%" PRIu32 ", %" PRIu32 ", >= 4]", kName, g.batches,
                         g.anchors);
  if (a[0] != g.anchors || a[1] != 4)
    return NNHAL_INVALID("%s anchors must have shape [%" PRIu32 ", 4]", kName, g.anchors);
  if (g.classes <= 1)
    return NNHAL_INVALID("%s needs more than one class (has %" PRIu32 ")", kName, g.classes);
  if (g.box_length < 4)
    return NNHAL_INVALID("%s has %" PRIu32 " box deltas per anchor, at least 4 needed", kName,
                         g.box_length);
  return g;
}

/// Scratch bytes, or UINT64_MAX on overflow.
inline std::uint64_t scratch_bytes(std::uint64_t anchors, std::uint64_t classes) noexcept {
  std::uint64_t ac = 0, words = 0, bytes = 0;
  if (__builtin_mul_overflow(anchors, classes, &ac) || __builtin_mul_overflow(ac, std::uint64_t{3}, &words) ||
      __builtin_add_overflow(words, 5 * anchors + 2 * classes, &words) || __builtin_mul_overflow(words, std::uint64_t{4}, &bytes))
    return UINT64_MAX;
  return bytes;
}

/// Output shapes: [b, rows], [b, rows, 4], [b, rows], [b].
template <OperandType T>
Status infer(const NodeIO& io) {
  auto g = read_shape(io);
  if (!g) return std::move(g.error());
  auto p = read_params<T>(io);
  if (!p) return std::move(p.error());
  NNHAL_TRY(set_output(io, 0, Dims{g->batches, p->out_per_image}));
  NNHAL_TRY(set_output(io, 1, Dims{g->batches, p->out_per_image, 4}));
  NNHAL_TRY(set_output(io, 2, Dims{g->batches, p->out_per_image}));
  return set_output(io, 3, Dims{g->batches});
}

template <OperandType T>
Status kernel(const NodeIO& io) {
  using E = element_t<T>;
  auto ge = read_shape(io);
  if (!ge) return std::move(ge.error());
  auto pe = read_params<T>(io);
  if (!pe) return std::move(pe.error());
  const Shape& g = *ge;
  const Params& p = *pe;
  const std::uint32_t rows = p.out_per_image;
  if (io.output(0).dims != Dims{g.batches, rows} || io.output(1).dims != Dims{g.batches, rows, 4} ||
      io.output(2).dims != Dims{g.batches, rows} || io.output(3).dims != Dims{g.batches})
    return NNHAL_FAILURE("%s output shapes do not match the inputs", kName);
  const std::uint64_t need = scratch_bytes(g.anchors, g.classes);
  if (io.workspace() == nullptr || need > io.params<Planned>().workspace_bytes)
    return NNHAL_FAILURE("%s: scores of %" PRIu32 " x %" PRIu32
                         " need more scratch than planned at prepare",
                         kName, g.anchors, g.classes);
  const std::size_t na = g.anchors, nc = g.classes;
  float* boxes = reinterpret_cast<float*>(io.workspace());
  float* scores = boxes + 4 * na;
  float* best = scores + na * nc;
  std::uint32_t* select = reinterpret_cast<std::uint32_t*>(best + na);
  std::uint32_t* merge = select + na * nc;
  std::uint32_t* order = merge + na * nc;
  std::uint32_t* order_merge = order + nc;

  const E* in_scores = io.in_data<T>(0);
  const E* in_deltas = io.in_data<T>(1);
  const E* in_anchors = io.in_data<T>(2);
  E* out_scores = io.out_data<T>(0);
  E* out_boxes = io.out_data<T>(1);
  std::int32_t* out_classes = io.out_data<OperandType::TENSOR_INT32>(2);
  std::int32_t* out_count = io.out_data<OperandType::TENSOR_INT32>(3);
  const std::size_t total_rows = std::size_t{g.batches} * rows;
  for (std::size_t i = 0; i < total_rows; ++i) out_scores[i] = roi::from_float<E>(0.0f, 0, 0);
  for (std::size_t i = 0; i < total_rows * 4; ++i) out_boxes[i] = roi::from_float<E>(0.0f, 0, 0);
  std::memset(out_classes, 0, total_rows * sizeof(std::int32_t));
  if (na == 0) {
    std::memset(out_count, 0, std::size_t{g.batches} * sizeof(std::int32_t));
    return {};
  }
  for (std::size_t a = 0; a < na; ++a) {
    for (std::size_t k = 0; k < 4; ++k)
      if (!std::isfinite(roi::to_float(in_anchors[a * 4 + k], 0, 0)))
        return NNHAL_INVALID("%s anchor %zu has a non-finite value", kName, a);
    if (roi::to_float(in_anchors[a * 4 + 2], 0, 0) < 0 || roi::to_float(in_anchors[a * 4 + 3], 0, 0) < 0)
      return NNHAL_INVALID("%s anchor %zu has a negative extent", kName, a);
  }
  const std::int32_t label_shift = p.background ? 0 : 1;
  auto box_of_anchor = [boxes](std::uint32_t a) noexcept { return boxes + std::size_t{a} * 4; };

  for (std::size_t b = 0; b < g.batches; ++b) {
    for (std::size_t a = 0; a < na; ++a) {
      const E* an = in_anchors + a * 4;
      const E* d = in_deltas + (b * na + a) * g.box_length;
      const float cy = roi::to_float(an[0], 0, 0), cx = roi::to_float(an[1], 0, 0);
      const float h = roi::to_float(an[2], 0, 0), w = roi::to_float(an[3], 0, 0);
      const float y_ctr = cy + h * roi::to_float(d[0], 0, 0) / p.scale_y;
      const float x_ctr = cx + w * roi::to_float(d[1], 0, 0) / p.scale_x;
      const float h_half = h * std::exp(roi::to_float(d[2], 0, 0) / p.scale_h) * 0.5f;
      const float w_half = w * std::exp(roi::to_float(d[3], 0, 0) / p.scale_w) * 0.5f;
      float* o = boxes + a * 4;
      o[0] = y_ctr - h_half;
      o[1] = x_ctr - w_half;
      o[2] = y_ctr + h_half;
      o[3] = x_ctr + w_half;
    }
    const E* bs = in_scores + b * na * nc;
    for (std::size_t i = 0; i < na * nc; ++i) scores[i] = roi::to_float(bs[i], 0, 0);
    E* os = out_scores + b * rows;
    E* ob = out_boxes + b * rows * 4;
    std::int32_t* oc = out_classes + b * rows;
    std::size_t written = 0;
    if (p.regular) {
      std::size_t count = 0;
      for (std::size_t c = 1; c < nc; ++c) {
        std::uint32_t* start = select + count;
        std::size_t len = 0;
        for (std::size_t a = 0; a < na; ++a)
          if (scores[a * nc + c] > p.score_threshold) start[len++] = static_cast<std::uint32_t>(a * nc + c);
        std::uint32_t* end = roi::hard_nms(start, start + len, scores, p.iou_threshold,
                                           static_cast<std::size_t>(p.max_per_class),
                                           [boxes, nc](std::uint32_t i) noexcept { return boxes + (i / nc) * 4; },
                                           box_with_nms_limit::iou);
        count = static_cast<std::size_t>(end - select);
      }
      box_with_nms_limit::stable_sort(select, count, merge,
                                      [scores](std::uint32_t l, std::uint32_t r) { return scores[l] > scores[r]; });
      count = std::min(count, static_cast<std::size_t>(p.max_detections));
      for (std::size_t i = 0; i < count; ++i) {
        const std::size_t index = select[i];
        os[i] = roi::from_float<E>(scores[index], 0, 0);
        for (std::size_t k = 0; k < 4; ++k) ob[i * 4 + k] = roi::from_float<E>(boxes[(index / nc) * 4 + k], 0, 0);
        oc[i] = static_cast<std::int32_t>(index % nc) - label_shift;
      }
      written = count;
    } else {
      const std::size_t per_anchor = std::min<std::size_t>(nc - 1, static_cast<std::size_t>(p.max_classes));
      std::size_t len = 0;
      for (std::size_t a = 0; a < na; ++a) {
        float m = scores[a * nc + 1];
        for (std::size_t c = 2; c < nc; ++c) m = std::max(m, scores[a * nc + c]);
        best[a] = m;
        if (m > p.score_threshold) select[len++] = static_cast<std::uint32_t>(a);
      }
      std::uint32_t* end = roi::hard_nms(select, select + len, best, p.iou_threshold,
                                         static_cast<std::size_t>(p.max_detections), box_of_anchor,
                                         box_with_nms_limit::iou);
      const std::size_t kept = static_cast<std::size_t>(end - select);
      for (std::size_t k = 0; k < kept; ++k) {
        const float* s = scores + std::size_t{select[k]} * nc;
        for (std::size_t c = 1; c < nc; ++c) order[c - 1] = static_cast<std::uint32_t>(c);
        box_with_nms_limit::stable_sort(order, nc - 1, order_merge,
                                        [s](std::uint32_t l, std::uint32_t r) { return s[l] > s[r]; });
        for (std::size_t c = 0; c < per_anchor; ++c, ++written) {
          os[written] = roi::from_float<E>(s[order[c]], 0, 0);
          for (std::size_t q = 0; q < 4; ++q) ob[written * 4 + q] = roi::from_float<E>(boxes[std::size_t{select[k]} * 4 + q], 0, 0);
          oc[written] = static_cast<std::int32_t>(order[c]) - label_shift;
        }
      }
    }
    out_count[b] = static_cast<std::int32_t>(written);
  }
  return {};
}

/// DETECTION_POSTPROCESSING's kernels, keyed by the scores' type.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16};

  static Status infer(const NodeIO& io) {
    if (io.input(0).type == OperandType::TENSOR_FLOAT16)
      return detection_postprocessing::infer<OperandType::TENSOR_FLOAT16>(io);
    return detection_postprocessing::infer<OperandType::TENSOR_FLOAT32>(io);
  }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO& io, KernelPrepare& prepare) {
    Planned planned;
    const RtOperand& scores = io.input(0);
    if (scores.shape_known() && scores.dims.rank() == 3) {
      planned.workspace_bytes = scratch_bytes(scores.dims[1], scores.dims[2]);
      if (planned.workspace_bytes == UINT64_MAX || planned.workspace_bytes > (std::uint64_t{1} << 40))
        return NNHAL_INVALID("%s: the scores' size overflows", kName);
      prepare.workspace_bytes = static_cast<std::size_t>(planned.workspace_bytes);
    }
    prepare.store(planned);
    return &kernel<T>;
  }
};

}  // namespace nnhal::kernels::detection_postprocessing

namespace nnhal {

template <>
struct Kernels<OperationType::DETECTION_POSTPROCESSING> : kernels::detection_postprocessing::Family {};
static_assert(kernels_cover_row<OperationType::DETECTION_POSTPROCESSING>());

}  // namespace nnhal
