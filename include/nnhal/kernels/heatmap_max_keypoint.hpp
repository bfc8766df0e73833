#pragma once
/// \file
/// HEATMAP_MAX_KEYPOINT kernels (the row: nnhal/ops/heatmap_max_keypoint.hpp): per box and
/// keypoint, the maximum of the heatmap refined by a quadratic fit, mapped into the box.
///
/// Numerics as the reference (NNAPI HeatmapMaxKeypoint.cpp), in float (FLOAT16 and the 8-bit
/// heatmaps converted to float first, 16-bit boxes as q * 0.125):
///  - the first maximum in row-major (y, x) order (strictly greater replaces);
///  - the 3x3 neighbourhood around it, an index outside the map mirrored (-1 -> 1, size -> size - 2);
///  - a second-order Taylor fit: b = -(gradient), A = Hessian by central differences; when
///    |det A| < atol + rtol * A00 * A11 (1e-3 for FLOAT16, 1e-5 otherwise: the reference's
///    tolerances) the position is not refined and the score is the maximum; else delta =
///    inv(A) b, scaled down so that neither component exceeds 1.5, and the score is the fitted
///    value at delta;
///  - keypoint = ((index + delta + 0.5) / size) * box extent + box start, per axis.
/// Outputs: the score as the score type (8-bit: round(v / scale + zero point), clamped), the
/// keypoints as the box type (16-bit: round(v / 0.125), the scale the reference imposes).
/// Runtime checks: each box has x1 <= x2 and y1 <= y2 and finite corners (NaN or an infinity
/// fails; the reference checks only the order).

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/roi.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/heatmap_max_keypoint.hpp"

namespace nnhal::kernels::heatmap_max_keypoint {

inline constexpr const char* kName = "HEATMAP_MAX_KEYPOINT";

/// The heatmap's geometry: boxes, map size (square) and keypoints, with the layout.
struct Geometry {
  std::uint32_t boxes = 0, size = 0, keypoints = 0;
  bool nchw = false;
  /// Element offset of (box, y, x, keypoint).
  std::size_t at(std::size_t b, std::size_t y, std::size_t x, std::size_t k) const noexcept {
    return nchw ? ((b * keypoints + k) * size + y) * size + x : ((b * size + y) * size + x) * keypoints + k;
  }
};

inline Expected<Geometry> read_geometry(const NodeIO& io) {
  const Dims& d = io.input(0).dims;
  const RtOperand& boxes = io.input(1);
  Geometry g;
  g.nchw = layout_nchw(io, 2);
  if (d.rank() != 4) return NNHAL_INVALID("%s heatmaps have rank %zu, expected 4", kName, d.rank());
  g.boxes = d[0];
  g.size = d[2];
  g.keypoints = g.nchw ? d[1] : d[3];
  const std::uint32_t other = g.nchw ? d[3] : d[1];
  if (other != g.size)
    return NNHAL_INVALID("%s heatmaps are not square (%" PRIu32 " x %" PRIu32 ")", kName, other,
                         g.size);
  if (g.size < 2)
    return NNHAL_INVALID("%s heatmap size %" PRIu32 " is smaller than 2", kName, g.size);
  if (boxes.dims.rank() != 2 || boxes.dims[0] != g.boxes || boxes.dims[1] != 4)
    return NNHAL_INVALID("%s boxes must have shape [%" PRIu32 ", 4]", kName, g.boxes);
  NNHAL_TRY(roi::check_box_quant(boxes, kName, "boxes"));
  return g;
}

/// Output shapes: scores [boxes, keypoints], keypoints [boxes, keypoints, 2].
inline Status infer(const NodeIO& io) {
  auto g = read_geometry(io);
  if (!g) return std::move(g.error());
  NNHAL_TRY(set_output(io, 0, Dims{g->boxes, g->keypoints}));
  return set_output(io, 1, Dims{g->boxes, g->keypoints, 2});
}

/// The refined position (dx, dy) and score from the 3x3 grid around the maximum (grid[y][x]),
/// the reference's order of operations; `delta` and `score` keep their values when A is singular.
inline void solve_for_delta(const float grid[3][3], float* delta, float* score, float atol, float rtol) noexcept {
  const float b0 = -(grid[1][2] - grid[1][0]) / 2.0f;
  const float b1 = -(grid[2][1] - grid[0][1]) / 2.0f;
  const float a00 = grid[1][0] - 2.0f * grid[1][1] + grid[1][2];
  const float a01 = (grid[2][2] - grid[2][0] - grid[0][2] + grid[0][0]) / 4.0f;
  const float a10 = a01;
  const float a11 = grid[0][1] - 2.0f * grid[1][1] + grid[2][1];
  const float cross1 = a00 * a11, cross2 = a01 * a10;
  const float det = cross1 - cross2;
  if (std::abs(det) < (atol + rtol * cross1)) return;
  delta[0] = (a11 * b0 - a01 * b1) / det;
  delta[1] = (a00 * b1 - a10 * b0) / det;
  if (std::abs(delta[0]) > 1.5f || std::abs(delta[1]) > 1.5f) {
    const float s = 1.5f / std::max(std::abs(delta[0]), std::abs(delta[1]));
    delta[0] *= s;
    delta[1] *= s;
  }
  *score = grid[1][1] - b0 * delta[0] - b1 * delta[1] +
           ((a00 * delta[0] + a01 * delta[1]) * delta[0] + (a10 * delta[0] + a11 * delta[1]) * delta[1]) / 2.0f;
}

/// The kernel for heatmap type T (boxes of roi::kBoxType<T>).
template <OperandType T>
Status kernel(const NodeIO& io) {
  constexpr OperandType B = roi::kBoxType<T>;
  using E = element_t<T>;
  using BE = element_t<B>;
  auto ge = read_geometry(io);
  if (!ge) return std::move(ge.error());
  const Geometry& g = *ge;
  const RtOperand& hm = io.input(0);
  const RtOperand& bx = io.input(1);
  const RtOperand& os = io.output(0);
  if (io.output(0).dims != Dims{g.boxes, g.keypoints} || io.output(1).dims != Dims{g.boxes, g.keypoints, 2})
    return NNHAL_FAILURE("%s output shapes do not match the inputs", kName);
  if (g.boxes == 0 || g.keypoints == 0) return {};
  const float tol = T == OperandType::TENSOR_FLOAT16 ? 1e-3f : 1e-5f;
  const E* heat = io.in_data<T>(0);
  const BE* boxes = io.in_data<B>(1);
  E* out_scores = io.out_data<T>(0);
  BE* out_points = io.out_data<B>(1);
  auto value = [&](std::size_t b, std::size_t y, std::size_t x, std::size_t k) noexcept {
    return roi::to_float(heat[g.at(b, y, x, k)], hm.scale, hm.zero_point);
  };
  const auto size = static_cast<std::int32_t>(g.size);
  for (std::size_t b = 0; b < g.boxes; ++b) {
    float box[4];
    for (int k = 0; k < 4; ++k) box[k] = roi::to_float(boxes[b * 4 + static_cast<std::size_t>(k)], bx.scale, bx.zero_point);
    for (float v : box)
      if (!std::isfinite(v)) return NNHAL_INVALID("%s box %zu has a non-finite corner", kName, b);
    if (!(box[0] <= box[2]) || !(box[1] <= box[3])) return NNHAL_INVALID("%s box %zu is inverted", kName, b);
    for (std::size_t k = 0; k < g.keypoints; ++k) {
      std::size_t best_y = 0, best_x = 0;
      float best = -FLT_MAX;
      for (std::size_t y = 0; y < g.size; ++y)
        for (std::size_t x = 0; x < g.size; ++x) {
          const float v = value(b, y, x, k);
          if (best < v) best = v, best_y = y, best_x = x;
        }
      float grid[3][3];
      for (std::int32_t dy = -1; dy <= 1; ++dy)
        for (std::int32_t dx = -1; dx <= 1; ++dx) {
          std::int32_t y = static_cast<std::int32_t>(best_y) + dy, x = static_cast<std::int32_t>(best_x) + dx;
          y = y < 0 ? 1 : (y >= size ? size - 2 : y);
          x = x < 0 ? 1 : (x >= size ? size - 2 : x);
          grid[dy + 1][dx + 1] = value(b, static_cast<std::size_t>(y), static_cast<std::size_t>(x), k);
        }
      float delta[2] = {0.0f, 0.0f}, score = best;
      solve_for_delta(grid, delta, &score, tol, tol);
      const float rel_x = (static_cast<float>(best_x) + delta[0] + 0.5f) / static_cast<float>(g.size);
      const float rel_y = (static_cast<float>(best_y) + delta[1] + 0.5f) / static_cast<float>(g.size);
      const std::size_t o = b * g.keypoints + k;
      out_scores[o] = roi::from_float<E>(score, os.scale, os.zero_point);
      out_points[o * 2] = roi::from_float<BE>(rel_x * (box[2] - box[0]) + box[0], 0.125f, 0);
      out_points[o * 2 + 1] = roi::from_float<BE>(rel_y * (box[3] - box[1]) + box[1], 0.125f, 0);
    }
  }
  return {};
}

/// HEATMAP_MAX_KEYPOINT's kernels, keyed by the heatmap's type.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                                    OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_ASYMM_SIGNED};

  static Status infer(const NodeIO& io) { return heatmap_max_keypoint::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &kernel<T>;
  }
};

}  // namespace nnhal::kernels::heatmap_max_keypoint

namespace nnhal {

template <>
struct Kernels<OperationType::HEATMAP_MAX_KEYPOINT> : kernels::heatmap_max_keypoint::Family {};
static_assert(kernels_cover_row<OperationType::HEATMAP_MAX_KEYPOINT>());

}  // namespace nnhal
