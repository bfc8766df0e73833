#pragma once
/// \file
/// BOX_WITH_NMS_LIMIT kernels (the row: nnhal/ops/box_with_nms_limit.hpp): per image and per
/// foreground class, score filtering and hard / linear / gaussian non-max suppression, then at
/// most max_detections results per image, ordered by class and score.
///
/// The algorithm of the reference (NNAPI GenerateProposals.cpp), reproduced step by step since
/// the order of the results depends on it:
///  - ROIs of one image are consecutive: a batch is a run of equal batch indices.
///  - Scores are converted to float (8-bit: (q - zero point) * scale) into scratch, where the
///    suppression rewrites them; boxes are read as float (16-bit: q * 0.125).
///  - For each class c >= 1 (class 0 is the background): the candidates are the ROIs of the
///    batch, in order, whose score > score_threshold. Repeatedly (at most max_detections times
///    when >= 0): the first candidate of highest score is swapped to the front and kept; every
///    other remaining candidate's score is multiplied by kernel(IoU with the kept one), and a
///    candidate whose new score < nms_score_threshold is swapped with the last remaining one and
///    dropped (the swapped-in candidate is examined next). kernel: hard 0 = (iou < t ? 1 : 0),
///    linear 1 = (iou < t ? 1 : 1 - iou), gaussian 2 = exp(-iou^2 / sigma). With the hard kernel
///    a suppressed score becomes 0 and is dropped only when 0 < nms_score_threshold, as in the
///    reference.
///  - The kept candidates of all classes are sorted by score, descending, and cut to
///    max_detections (when >= 0); then sorted by class ascending, score descending. The
///    reference uses std::sort for both; nnhal sorts stably, so equal scores keep the order in
///    which the suppression kept them (a merge sort in scratch).
///  - Outputs, batch after batch: the (suppressed) score converted back to the score type
///    (8-bit: round(v / scale + zero point), clamped), the box copied as stored, the class and
///    the batch index.
/// The reference checks per batch that the first num_rois_in_batch box quadruples of the batch's
/// boxes (not every class's box: a quirk kept here) have x1 <= x2 and y1 <= y2 (NaN fails too).
/// nnhal also rejects a negative batch index and a batch index that reappears after another
/// (the reference would silently treat it as a new image).
///
/// The output size depends on the data: shape inference runs the whole algorithm (its scores,
/// boxes and batch_index inputs are marked value-read in the row, so the node is inferred at
/// execution unless they are constants). Scratch, 12 bytes per score, is planned at prepare
/// from the scores' shape; when that shape is unknown at prepare (or grows), the node fails at
/// execution with an error rather than allocating.

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/roi.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/box_with_nms_limit.hpp"

namespace nnhal::kernels::box_with_nms_limit {

inline constexpr const char* kName = "BOX_WITH_NMS_LIMIT";

/// Scratch bytes per score element: the float score, the selection and the merge buffer.
inline constexpr std::size_t kScratchPerScore = sizeof(float) + 2 * sizeof(std::uint32_t);

/// What prepare recorded: the scratch bytes planned.
struct Planned {
  std::uint64_t workspace_bytes = 0;
};

/// The scalars of a node.
struct Params {
  float score_threshold = 0, iou_threshold = 0, sigma = 0, nms_score_threshold = 0;
  std::int32_t max_detections = 0, kernel = 0;
};

/// Shapes: num_rois and num_classes, checked.
struct Shape {
  std::size_t rois = 0, classes = 0;
};

template <OperandType T>
inline Expected<Params> read_params(const NodeIO& io) {
  Params p;
  p.score_threshold = roi::float_scalar<T>(io, 3);
  p.max_detections = io.scalar<OperandType::INT32>(4);
  p.kernel = io.scalar<OperandType::INT32>(5);
  p.iou_threshold = roi::float_scalar<T>(io, 6);
  p.sigma = roi::float_scalar<T>(io, 7);
  p.nms_score_threshold = roi::float_scalar<T>(io, 8);
  if (p.kernel < 0 || p.kernel > 2)
    return NNHAL_INVALID("%s: unsupported NMS kernel %" PRId32, kName, p.kernel);
  return p;
}

inline Expected<Shape> read_shape(const NodeIO& io) {
  const RtOperand& scores = io.input(0);
  const RtOperand& boxes = io.input(1);
  const RtOperand& batch = io.input(2);
  if (scores.dims.rank() != 2) return NNHAL_INVALID("%s scores must have rank 2", kName);
  Shape s{scores.dims[0], scores.dims[1]};
  if (boxes.dims.rank() != 2 || boxes.dims[0] != s.rois || std::uint64_t{boxes.dims[1]} != 4 * std::uint64_t{s.classes})
    return NNHAL_INVALID("%s boxes must have shape [num_rois, 4 * num_classes]", kName);
  if (batch.dims.rank() != 1 || batch.dims[0] != s.rois)
    return NNHAL_INVALID("%s batch_index must have shape [num_rois]", kName);
  if (s.classes <= 1) return NNHAL_INVALID("%s needs more than one class (has %zu)", kName, s.classes);
  NNHAL_TRY(roi::check_box_quant(boxes, kName, "boxes"));
  return s;
}

/// Scratch bytes for scores of `rois` x `classes`, or UINT64_MAX when that overflows.
inline std::uint64_t scratch_bytes(std::uint64_t rois, std::uint64_t classes) noexcept {
  std::uint64_t n = 0, b = 0;
  if (__builtin_mul_overflow(rois, classes, &n) || __builtin_mul_overflow(n, std::uint64_t{kScratchPerScore}, &b))
    return UINT64_MAX;
  return b;
}

/// Scratch views.
struct Scratch {
  float* scores = nullptr;
  std::uint32_t* select = nullptr;
  std::uint32_t* merge = nullptr;
};

inline Scratch carve(std::byte* ws, std::size_t count) noexcept {
  Scratch s;
  s.scores = reinterpret_cast<float*>(ws);
  s.select = reinterpret_cast<std::uint32_t*>(ws + count * sizeof(float));
  s.merge = s.select + count;
  return s;
}

/// IoU of two [x1, y1, x2, y2] boxes, in the reference's order of operations.
inline float iou(const float* a, const float* b) noexcept {
  const float area1 = (a[2] - a[0]) * (a[3] - a[1]);
  const float area2 = (b[2] - b[0]) * (b[3] - b[1]);
  const float x1 = std::max(a[0], b[0]), x2 = std::min(a[2], b[2]);
  const float y1 = std::max(a[1], b[1]), y2 = std::min(a[3], b[3]);
  const float w = std::max(x2 - x1, 0.0f), h = std::max(y2 - y1, 0.0f);
  const float inter = w * h;
  return inter / (area1 + area2 - inter);
}

/// Stable merge sort of a[0, n) by `before` (a strict order), with tmp[0, n) as scratch.
template <class Before>
inline void stable_sort(std::uint32_t* a, std::size_t n, std::uint32_t* tmp, Before before) noexcept {
  std::uint32_t* src = a;
  std::uint32_t* dst = tmp;
  for (std::size_t width = 1; width < n; width *= 2) {
    for (std::size_t lo = 0; lo < n; lo += 2 * width) {
      const std::size_t mid = std::min(lo + width, n), hi = std::min(lo + 2 * width, n);
      std::size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) dst[k++] = before(src[j], src[i]) ? src[j++] : src[i++];
      while (i < mid) dst[k++] = src[i++];
      while (j < hi) dst[k++] = src[j++];
    }
    std::swap(src, dst);
  }
  if (src != a) std::memcpy(a, src, n * sizeof(std::uint32_t));
}

/// Runs the algorithm. With `write`, fills the outputs (already sized); returns the number of
/// detections.
template <OperandType T>
Expected<std::size_t> run(const NodeIO& io, const Scratch& s, bool write) {
  constexpr OperandType B = roi::kBoxType<T>;
  using E = element_t<T>;
  using BE = element_t<B>;
  auto pe = read_params<T>(io);
  if (!pe) return std::move(pe.error());
  const Params& p = *pe;
  auto she = read_shape(io);
  if (!she) return std::move(she.error());
  const std::size_t rois = she->rois, classes = she->classes;
  if (rois == 0) return std::size_t{0};
  const RtOperand& sc = io.input(0);
  const RtOperand& bx = io.input(1);
  if (sc.data == nullptr || bx.data == nullptr || io.input(2).data == nullptr)
    return NNHAL_INVALID("%s: an input has no value", kName);
  const E* in_scores = io.in_data<T>(0);
  const BE* in_boxes = io.in_data<B>(1);
  const std::int32_t* batch = io.in_data<OperandType::TENSOR_INT32>(2);
  const std::size_t total = rois * classes;
  for (std::size_t i = 0; i < total; ++i) s.scores[i] = roi::to_float(in_scores[i], sc.scale, sc.zero_point);
  auto box_at = [&](std::size_t index, float* f) noexcept {
    for (int k = 0; k < 4; ++k) f[k] = roi::to_float(in_boxes[index * 4 + k], bx.scale, bx.zero_point);
  };
  auto kernel = [&](float v) noexcept {
    if (p.kernel == 0) return v < p.iou_threshold ? 1.0f : 0.0f;
    if (p.kernel == 1) return v < p.iou_threshold ? 1.0f : 1.0f - v;
    return std::exp(-1.0f * v * v / p.sigma);
  };

  E* out_scores = write ? io.out_data<T>(0) : nullptr;
  BE* out_boxes = write ? io.out_data<B>(1) : nullptr;
  std::int32_t* out_classes = write ? io.out_data<OperandType::TENSOR_INT32>(2) : nullptr;
  std::int32_t* out_batch = write ? io.out_data<OperandType::TENSOR_INT32>(3) : nullptr;
  const RtOperand& os = io.output(0);
  std::size_t emitted = 0;

  for (std::size_t first = 0; first < rois;) {
    const std::int32_t b = batch[first];
    if (b < 0)
      return NNHAL_INVALID("%s roi %zu has a negative batch index %" PRId32, kName, first, b);
    std::size_t n = 1;
    while (first + n < rois && batch[first + n] == b) ++n;
    for (std::size_t later = first + n; later < rois; ++later)
      if (batch[later] == b)
        return NNHAL_INVALID("%s: the ROIs of batch %" PRId32 " are not consecutive", kName, b);
    const std::size_t base = first * classes;  // score index of the batch's first ROI
    // The reference's check: the first n box quadruples of the batch's boxes.
    for (std::size_t i = 0; i < n; ++i) {
      float f[4];
      box_at(base + i, f);
      if (!(f[0] <= f[2]) || !(f[1] <= f[3]))
        return NNHAL_INVALID("%s: box %zu of batch %" PRId32 " is inverted", kName, i, b);
    }
    const float* bs = s.scores + base;
    std::uint32_t* sel = s.select;
    std::size_t count = 0;
    for (std::size_t c = 1; c < classes; ++c) {
      std::uint32_t* start = sel + count;
      std::size_t len = 0;
      for (std::size_t r = 0; r < n; ++r) {
        const auto index = static_cast<std::uint32_t>(r * classes + c);
        if (bs[index] > p.score_threshold) start[len++] = index;
      }
      std::uint32_t* end = start + len;
      const std::size_t limit = p.max_detections < 0 ? len : static_cast<std::size_t>(p.max_detections);
      std::size_t kept = 0;
      float* ms = s.scores + base;
      while (start < end && kept < limit) {
        std::uint32_t* best = start;
        for (std::uint32_t* q = start + 1; q < end; ++q)
          if (ms[*best] < ms[*q]) best = q;
        std::swap(*best, *start);
        float kb[4];
        box_at(base + *start, kb);
        for (std::uint32_t* q = start + 1; q < end; ++q) {
          float qb[4];
          box_at(base + *q, qb);
          ms[*q] *= kernel(iou(qb, kb));
          if (ms[*q] < p.nms_score_threshold) {
            std::swap(*q, *(end - 1));
            --end;
            --q;
          }
        }
        ++start;
        ++kept;
      }
      count = static_cast<std::size_t>(start - sel);
    }
    stable_sort(sel, count, s.merge, [bs](std::uint32_t l, std::uint32_t r) { return bs[l] > bs[r]; });
    if (p.max_detections >= 0 && count > static_cast<std::size_t>(p.max_detections))
      count = static_cast<std::size_t>(p.max_detections);
    stable_sort(sel, count, s.merge, [bs, classes](std::uint32_t l, std::uint32_t r) {
      const std::size_t cl = l % classes, cr = r % classes;
      return cl == cr ? bs[l] > bs[r] : cl < cr;
    });
    if (write) {
      if (emitted + count > os.dims.element_count())
        return NNHAL_FAILURE("%s output shape does not match its inputs", kName);
      for (std::size_t k = 0; k < count; ++k) {
        const std::size_t index = sel[k];
        out_scores[emitted + k] = roi::from_float<E>(bs[index], os.scale, os.zero_point);
        std::memcpy(out_boxes + (emitted + k) * 4, in_boxes + (base + index) * 4, 4 * sizeof(BE));
        out_classes[emitted + k] = static_cast<std::int32_t>(index % classes);
        out_batch[emitted + k] = b;
      }
    }
    emitted += count;
    first += n;
  }
  return emitted;
}

/// Runs the algorithm with the node's scratch, or (at prepare, for constant inputs) a
/// temporary buffer.
template <OperandType T>
Expected<std::size_t> run_with_scratch(const NodeIO& io, bool write) {
  auto she = read_shape(io);
  if (!she) return std::move(she.error());
  const std::uint64_t need = scratch_bytes(she->rois, she->classes);
  if (need == UINT64_MAX) return NNHAL_INVALID("%s: the scores' size overflows", kName);
  if (need == 0) return std::size_t{0};
  if (io.workspace() == nullptr) {
    // Only prepare-time inference of constant inputs may use a temporary buffer; a node
    // running without planned scratch fails rather than allocating.
    for (std::size_t i = 0; i < 3; ++i) {
      const OperandLifeTime l = io.input(i).lifetime;
      if (write || (l != OperandLifeTime::CONSTANT_COPY && l != OperandLifeTime::CONSTANT_REFERENCE))
        return NNHAL_FAILURE("%s: no scratch was planned (the scores' shape was unknown at prepare)", kName);
    }
    std::vector<std::uint32_t> buf((need + 3) / 4);  // prepare time only (constant inputs)
    return run<T>(io, carve(reinterpret_cast<std::byte*>(buf.data()), she->rois * she->classes), false);
  }
  if (need > io.params<Planned>().workspace_bytes)
    return NNHAL_FAILURE("%s: scores of %zu x %zu need more scratch than planned at prepare (their shape was "
                         "unknown or smaller then)", kName, she->rois, she->classes);
  return run<T>(io, carve(io.workspace(), she->rois * she->classes), write);
}

template <OperandType T>
Status infer(const NodeIO& io) {
  auto n = run_with_scratch<T>(io, false);
  if (!n) return std::move(n.error());
  const auto m = static_cast<std::uint32_t>(*n);
  NNHAL_TRY(set_output(io, 0, Dims{m}));
  NNHAL_TRY(set_output(io, 1, Dims{m, 4}));
  NNHAL_TRY(set_output(io, 2, Dims{m}));
  return set_output(io, 3, Dims{m});
}

template <OperandType T>
Status kernel(const NodeIO& io) {
  const RtOperand& o = io.output(0);
  const std::uint64_t n = o.dims.rank() == 1 ? o.dims[0] : UINT64_MAX;
  for (std::size_t i = 1; i < 4; ++i) {
    const Dims& d = io.output(i).dims;
    if (d.rank() == 0 || d[0] != n || (i == 1 && (d.rank() != 2 || d[1] != 4)))
      return NNHAL_FAILURE("%s output shapes do not agree", kName);
  }
  auto she = read_shape(io);
  if (!she) return std::move(she.error());
  if (she->rois == 0) return {};
  auto got = run_with_scratch<T>(io, true);
  if (!got) return std::move(got.error());
  if (*got != n) return NNHAL_FAILURE("%s output shape does not match its inputs", kName);
  return {};
}

/// BOX_WITH_NMS_LIMIT's kernels, keyed by the scores' type.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                                    OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_ASYMM_SIGNED};

  static Status infer(const NodeIO& io) {
    switch (io.input(0).type) {
      case OperandType::TENSOR_FLOAT32: return box_with_nms_limit::infer<OperandType::TENSOR_FLOAT32>(io);
      case OperandType::TENSOR_FLOAT16: return box_with_nms_limit::infer<OperandType::TENSOR_FLOAT16>(io);
      case OperandType::TENSOR_QUANT8_ASYMM: return box_with_nms_limit::infer<OperandType::TENSOR_QUANT8_ASYMM>(io);
      case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
        return box_with_nms_limit::infer<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>(io);
      default: return NNHAL_INVALID("%s: unsupported scores type", kName);
    }
  }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO& io, KernelPrepare& prepare) {
    Planned planned;
    const RtOperand& scores = io.input(0);
    if (scores.shape_known() && scores.dims.rank() == 2) {
      planned.workspace_bytes = scratch_bytes(scores.dims[0], scores.dims[1]);
      if (planned.workspace_bytes == UINT64_MAX || planned.workspace_bytes > (std::uint64_t{1} << 40))
        return NNHAL_INVALID("%s: the scores' size overflows", kName);
      prepare.workspace_bytes = static_cast<std::size_t>(planned.workspace_bytes);
    }
    prepare.store(planned);
    return &kernel<T>;
  }
};

}  // namespace nnhal::kernels::box_with_nms_limit

namespace nnhal {

template <>
struct Kernels<OperationType::BOX_WITH_NMS_LIMIT> : kernels::box_with_nms_limit::Family {};
static_assert(kernels_cover_row<OperationType::BOX_WITH_NMS_LIMIT>());

}  // namespace nnhal
