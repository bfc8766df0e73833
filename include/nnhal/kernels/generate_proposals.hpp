#pragma once
/// \file
/// GENERATE_PROPOSALS kernels (the row: nnhal/ops/generate_proposals.hpp): per image, anchors
/// laid over the feature grid, moved by the box deltas, clipped, filtered by size, and reduced
/// by hard non-max suppression.
///
/// The algorithm of the reference (NNAPI GenerateProposals.cpp), step by step since the order
/// of the results depends on it; everything in float (FLOAT16 widened, 8-bit scores and deltas
/// as (q - zero point) * scale, 16-bit anchors and image info as (q - zero point) * scale):
///  - ROI i = (y * width + x) * anchors + a (NHWC order, also for NCHW inputs) is anchor a
///    shifted by (x * width_stride, y * height_stride); it must have x1 <= x2 and y1 <= y2.
///  - It is moved by its deltas (dx, dy, dw, dh) as AXIS_ALIGNED_BBOX_TRANSFORM does and clipped
///    to [0, image width] x [0, image height] (image info is (height, width) per image).
///  - The candidates are all ROIs in order; when 0 < pre_nms_max < their number, they are
///    sorted by score, descending, and cut to pre_nms_max. The reference uses std::sort; nnhal
///    sorts stably (equal scores keep index order), the merge sort of BOX_WITH_NMS_LIMIT.
///  - A candidate stays when width > min_size, height > min_size and its centre lies left of
///    the image width and above the image height.
///  - Hard NMS (box_with_nms_limit's single-class loop with the hard kernel): the first candidate
///    of highest score is kept, every other one with IoU >= iou_threshold is dropped (swapped
///    with the last), at most post_nms_max kept (< 0: no limit; 0 keeps none, as the reference).
///  - Outputs, image after image: the score (8-bit: in the input's quantization, which the
///    reference gives the output), the clipped box (16-bit: round(v / 0.125)), the image index.
/// Runtime checks beyond the shapes: finite, non-negative strides, a finite IoU threshold and
/// minimum size (nnhal's; the reference does not check them), 16-bit anchors and image info
/// of scale 0.125 and zero point 0 (the reference checks this for QUANT8_ASYMM only; every
/// quantized model must follow it here), anchors with ordered corners.
///
/// The output size depends on the data: shape inference runs the whole algorithm (scores,
/// deltas, anchors and image info are value-read in the row). Scratch, 28 bytes per ROI of one
/// image, is planned at prepare from the scores' shape, as BOX_WITH_NMS_LIMIT does.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/box_with_nms_limit.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/roi.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/generate_proposals.hpp"

namespace nnhal::kernels::generate_proposals {

inline constexpr const char* kName = "GENERATE_PROPOSALS";

/// Scratch bytes per ROI of one image: the float score, the transformed box, the selection and
/// the merge buffer.
inline constexpr std::size_t kScratchPerRoi = 5 * sizeof(float) + 2 * sizeof(std::uint32_t);

/// The anchors' operand type next to scores of type T.
template <OperandType T>
inline constexpr OperandType kAnchorType = roi::kQuantized<T> ? OperandType::TENSOR_QUANT16_SYMM : T;

/// What prepare recorded: the scratch bytes planned.
struct Planned {
  std::uint64_t workspace_bytes = 0;
};

/// The geometry: images, grid, anchors per cell, layout.
struct Shape {
  std::uint32_t batches = 0, height = 0, width = 0, anchors = 0;
  bool nchw = false;
  std::uint64_t rois() const noexcept { return std::uint64_t{height} * width * anchors; }
};

/// The scalars.
struct Params {
  float h_stride = 0, w_stride = 0, iou_threshold = 0, min_size = 0;
  std::int32_t pre_nms = 0, post_nms = 0;
};

inline Expected<Shape> read_shape(const NodeIO& io) {
  const Dims& s = io.input(0).dims;
  const Dims& d = io.input(1).dims;
  const Dims& a = io.input(2).dims;
  const Dims& info = io.input(3).dims;
  Shape g;
  g.nchw = layout_nchw(io, 10);
  if (s.rank() != 4 || d.rank() != 4) return NNHAL_INVALID("%s scores and bbox_deltas must have rank 4", kName);
  if (a.rank() != 2 || info.rank() != 2) return NNHAL_INVALID("%s anchors and image_info must have rank 2", kName);
  g.batches = s[0];
  g.height = g.nchw ? s[2] : s[1];
  g.width = g.nchw ? s[3] : s[2];
  g.anchors = g.nchw ? s[1] : s[3];
  const std::uint32_t dh = g.nchw ? d[2] : d[1], dw = g.nchw ? d[3] : d[2], dc = g.nchw ? d[1] : d[3];
  if (d[0] != g.batches || dh != g.height || dw != g.width || std::uint64_t{dc} != 4 * std::uint64_t{g.anchors})
    return NNHAL_INVALID("%s bbox_deltas must match the scores with 4 values per anchor", kName);
  if (a[0] != g.anchors || a[1] != 4)
    return NNHAL_INVALID("%s anchors must have shape [%" PRIu32 ", 4]", kName, g.anchors);
  if (info[0] != g.batches || info[1] != 2)
    return NNHAL_INVALID("%s image_info must have shape [%" PRIu32 ", 2]", kName, g.batches);
  for (std::size_t i : {std::size_t{2}, std::size_t{3}}) {
    const RtOperand& q = io.input(i);
    if ((q.type == OperandType::TENSOR_QUANT16_SYMM || q.type == OperandType::TENSOR_QUANT16_ASYMM) &&
        (q.scale != 0.125f || q.zero_point != 0))
      return NNHAL_INVALID("%s %s must have scale 0.125 and zero point 0", kName, i == 2 ? "anchors" : "image_info");
  }
  return g;
}

template <OperandType T>
inline Expected<Params> read_params(const NodeIO& io) {
  Params p;
  p.h_stride = roi::float_scalar<T>(io, 4);
  p.w_stride = roi::float_scalar<T>(io, 5);
  p.pre_nms = io.scalar<OperandType::INT32>(6);
  p.post_nms = io.scalar<OperandType::INT32>(7);
  p.iou_threshold = roi::float_scalar<T>(io, 8);
  p.min_size = roi::float_scalar<T>(io, 9);
  if (!std::isfinite(p.h_stride) || !std::isfinite(p.w_stride) || p.h_stride < 0 || p.w_stride < 0)
    return NNHAL_INVALID("%s strides %g, %g must be finite and non-negative", kName, static_cast<double>(p.h_stride),
                         static_cast<double>(p.w_stride));
  if (!std::isfinite(p.iou_threshold) || !std::isfinite(p.min_size))
    return NNHAL_INVALID("%s iou_threshold and min_size must be finite", kName);
  return p;
}

/// Scratch bytes for `rois` ROIs per image, or UINT64_MAX when that overflows.
inline std::uint64_t scratch_bytes(std::uint64_t rois) noexcept {
  std::uint64_t b = 0;
  return __builtin_mul_overflow(rois, std::uint64_t{kScratchPerRoi}, &b) ? UINT64_MAX : b;
}

/// Runs the algorithm on scratch `ws`. With `write`, fills the outputs (already sized);
/// returns the number of proposals.
template <OperandType T>
Expected<std::size_t> run(const NodeIO& io, std::byte* ws, bool write) {
  constexpr OperandType A = kAnchorType<T>;
  constexpr OperandType B = roi::kBoxType<T>;
  using E = element_t<T>;
  using AE = element_t<A>;
  using BE = element_t<B>;
  auto ge = read_shape(io);
  if (!ge) return std::move(ge.error());
  auto pe = read_params<T>(io);
  if (!pe) return std::move(pe.error());
  const Shape& g = *ge;
  const Params& p = *pe;
  const std::size_t n = static_cast<std::size_t>(g.rois());
  if (n == 0 || g.batches == 0) return std::size_t{0};
  for (std::size_t i = 0; i < 4; ++i)
    if (io.input(i).data == nullptr) return NNHAL_INVALID("%s input %zu has no value", kName, i);
  const RtOperand& sc = io.input(0);
  const RtOperand& dl = io.input(1);
  const RtOperand& an = io.input(2);
  const RtOperand& im = io.input(3);
  const E* scores = io.in_data<T>(0);
  const E* deltas = io.in_data<T>(1);
  const AE* anchors = io.in_data<A>(2);
  const BE* info = io.in_data<B>(3);

  float* score = reinterpret_cast<float*>(ws);
  float* boxes = score + n;
  std::uint32_t* select = reinterpret_cast<std::uint32_t*>(boxes + 4 * n);
  std::uint32_t* merge = select + n;

  for (std::size_t a = 0; a < g.anchors; ++a) {
    float c[4];
    for (std::size_t k = 0; k < 4; ++k) c[k] = roi::to_float(anchors[a * 4 + k], an.scale, an.zero_point);
    if (!(c[0] <= c[2]) || !(c[1] <= c[3])) return NNHAL_INVALID("%s anchor %zu is inverted or not a number", kName, a);
  }

  const std::size_t hw = std::size_t{g.height} * g.width;
  // Offsets of (image b, cell, anchor a, component k) in the scores / deltas of either layout.
  auto score_at = [&](std::size_t b, std::size_t cell, std::size_t a) noexcept {
    return g.nchw ? (b * g.anchors + a) * hw + cell : (b * hw + cell) * g.anchors + a;
  };
  auto delta_at = [&](std::size_t b, std::size_t cell, std::size_t a, std::size_t k) noexcept {
    return g.nchw ? (b * g.anchors * 4 + a * 4 + k) * hw + cell : (b * hw + cell) * g.anchors * 4 + a * 4 + k;
  };

  E* out_scores = write ? io.out_data<T>(0) : nullptr;
  BE* out_rois = write ? io.out_data<B>(1) : nullptr;
  std::int32_t* out_batch = write ? io.out_data<OperandType::TENSOR_INT32>(2) : nullptr;
  const std::size_t capacity = write ? static_cast<std::size_t>(io.output(0).dims.element_count()) : 0;
  std::size_t emitted = 0;

  for (std::size_t b = 0; b < g.batches; ++b) {
    const float img_h = roi::to_float(info[b * 2], im.scale, im.zero_point);
    const float img_w = roi::to_float(info[b * 2 + 1], im.scale, im.zero_point);
    for (std::size_t y = 0; y < g.height; ++y) {
      const float h_shift = static_cast<float>(y) * p.h_stride;
      for (std::size_t x = 0; x < g.width; ++x) {
        const float w_shift = static_cast<float>(x) * p.w_stride;
        const std::size_t cell = y * g.width + x;
        for (std::size_t a = 0; a < g.anchors; ++a) {
          const std::size_t i = cell * g.anchors + a;
          const float x1 = roi::to_float(anchors[a * 4], an.scale, an.zero_point) + w_shift;
          const float y1 = roi::to_float(anchors[a * 4 + 1], an.scale, an.zero_point) + h_shift;
          const float x2 = roi::to_float(anchors[a * 4 + 2], an.scale, an.zero_point) + w_shift;
          const float y2 = roi::to_float(anchors[a * 4 + 3], an.scale, an.zero_point) + h_shift;
          float d[4];
          for (std::size_t k = 0; k < 4; ++k) d[k] = roi::to_float(deltas[delta_at(b, cell, a, k)], dl.scale, dl.zero_point);
          const float w = x2 - x1, h = y2 - y1, cx = (x1 + x2) / 2, cy = (y1 + y2) / 2;
          const float nw = std::exp(d[2]) * w, nh = std::exp(d[3]) * h;
          const float nx = cx + d[0] * w, ny = cy + d[1] * h;
          float* o = boxes + i * 4;
          o[0] = std::min(std::max(nx - nw / 2, 0.0f), img_w);
          o[1] = std::min(std::max(ny - nh / 2, 0.0f), img_h);
          o[2] = std::min(std::max(nx + nw / 2, 0.0f), img_w);
          o[3] = std::min(std::max(ny + nh / 2, 0.0f), img_h);
          score[i] = roi::to_float(scores[score_at(b, cell, a)], sc.scale, sc.zero_point);
          select[i] = static_cast<std::uint32_t>(i);
        }
      }
    }
    std::size_t count = n;
    if (p.pre_nms > 0 && static_cast<std::size_t>(p.pre_nms) < count) {
      box_with_nms_limit::stable_sort(select, count, merge,
                                      [score](std::uint32_t l, std::uint32_t r) { return score[l] > score[r]; });
      count = static_cast<std::size_t>(p.pre_nms);
    }
    std::size_t kept = 0;
    for (std::size_t j = 0; j < count; ++j) {
      const float* r = boxes + std::size_t{select[j]} * 4;
      const float w = r[2] - r[0], h = r[3] - r[1];
      const float cx = r[0] + w / 2.0f, cy = r[1] + h / 2.0f;
      if (w > p.min_size && h > p.min_size && cx < img_w && cy < img_h) select[kept++] = select[j];
    }
    const std::size_t limit = p.post_nms < 0 ? kept : static_cast<std::size_t>(p.post_nms);
    const auto box = [boxes](std::uint32_t i) noexcept { return boxes + std::size_t{i} * 4; };
    const std::size_t found = static_cast<std::size_t>(
        roi::hard_nms(select, select + kept, score, p.iou_threshold, limit, box, box_with_nms_limit::iou) - select);
    if (write) {
      if (emitted + found > capacity) return NNHAL_FAILURE("%s output shape does not match its inputs", kName);
      for (std::size_t k = 0; k < found; ++k) {
        const std::size_t i = select[k];
        out_scores[emitted + k] = roi::from_float<E>(score[i], sc.scale, sc.zero_point);
        for (std::size_t c = 0; c < 4; ++c)
          out_rois[(emitted + k) * 4 + c] = roi::from_float<BE>(boxes[i * 4 + c], 0.125f, 0);
        out_batch[emitted + k] = static_cast<std::int32_t>(b);
      }
    }
    emitted += found;
  }
  return emitted;
}

/// Runs the algorithm with the node's scratch, or (at prepare, for constant inputs) a
/// temporary buffer.
template <OperandType T>
Expected<std::size_t> run_with_scratch(const NodeIO& io, bool write) {
  auto g = read_shape(io);
  if (!g) return std::move(g.error());
  const std::uint64_t need = scratch_bytes(g->rois());
  if (need == UINT64_MAX) return NNHAL_INVALID("%s: the number of ROIs overflows", kName);
  if (need == 0 || g->batches == 0) return std::size_t{0};
  if (io.workspace() == nullptr) {
    // Only prepare-time inference of constant inputs may use a temporary buffer.
    for (std::size_t i = 0; i < 4; ++i) {
      const OperandLifeTime l = io.input(i).lifetime;
      if (write || (l != OperandLifeTime::CONSTANT_COPY && l != OperandLifeTime::CONSTANT_REFERENCE))
        return NNHAL_FAILURE("%s: no scratch was planned (the scores' shape was unknown at prepare)", kName);
    }
    std::vector<std::uint32_t> buf((need + 3) / 4);  // prepare time only (constant inputs)
    return run<T>(io, reinterpret_cast<std::byte*>(buf.data()), false);
  }
  if (need > io.params<Planned>().workspace_bytes)
    return NNHAL_FAILURE("%s: %llu ROIs per image need more scratch than planned at prepare", kName,
                         static_cast<unsigned long long>(g->rois()));
  return run<T>(io, io.workspace(), write);
}

template <OperandType T>
Status infer(const NodeIO& io) {
  auto n = run_with_scratch<T>(io, false);
  if (!n) return std::move(n.error());
  const auto m = static_cast<std::uint32_t>(*n);
  NNHAL_TRY(set_output(io, 0, Dims{m}));
  NNHAL_TRY(set_output(io, 1, Dims{m, 4}));
  return set_output(io, 2, Dims{m});
}

template <OperandType T>
Status kernel(const NodeIO& io) {
  const Dims& d0 = io.output(0).dims;
  if (d0.rank() != 1 || io.output(1).dims != Dims{d0[0], 4} || io.output(2).dims != Dims{d0[0]})
    return NNHAL_FAILURE("%s output shapes do not agree", kName);
  auto got = run_with_scratch<T>(io, true);
  if (!got) return std::move(got.error());
  if (*got != d0[0]) return NNHAL_FAILURE("%s output shape does not match its inputs", kName);
  return {};
}

/// GENERATE_PROPOSALS's kernels, keyed by the scores' type.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                                    OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_ASYMM_SIGNED};

  static Status infer(const NodeIO& io) {
    switch (io.input(0).type) {
      case OperandType::TENSOR_FLOAT32: return generate_proposals::infer<OperandType::TENSOR_FLOAT32>(io);
      case OperandType::TENSOR_FLOAT16: return generate_proposals::infer<OperandType::TENSOR_FLOAT16>(io);
      case OperandType::TENSOR_QUANT8_ASYMM: return generate_proposals::infer<OperandType::TENSOR_QUANT8_ASYMM>(io);
      case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
        return generate_proposals::infer<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>(io);
      default: return NNHAL_INVALID("%s: unsupported scores type", kName);
    }
  }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO& io, KernelPrepare& prepare) {
    Planned planned;
    const RtOperand& scores = io.input(0);
    if (scores.shape_known() && scores.dims.rank() == 4) {
      const Dims& s = scores.dims;
      planned.workspace_bytes = scratch_bytes(std::uint64_t{s[1]} * s[2] * s[3]);
      if (planned.workspace_bytes == UINT64_MAX || planned.workspace_bytes > (std::uint64_t{1} << 40))
        return NNHAL_INVALID("%s: the scores' size overflows", kName);
      prepare.workspace_bytes = static_cast<std::size_t>(planned.workspace_bytes);
    }
    prepare.store(planned);
    return &kernel<T>;
  }
};

}  // namespace nnhal::kernels::generate_proposals

namespace nnhal {

template <>
struct Kernels<OperationType::GENERATE_PROPOSALS> : kernels::generate_proposals::Family {};
static_assert(kernels_cover_row<OperationType::GENERATE_PROPOSALS>());

}  // namespace nnhal
