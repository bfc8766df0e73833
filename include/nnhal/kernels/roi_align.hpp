#pragma once
/// \file
/// ROI_ALIGN kernels (the row: nnhal/ops/roi_align.hpp): each region of interest of a 4-D
/// feature map, scaled by 1 / ratio, divided into an output_height x output_width grid whose
/// bins average sampling-ratio^2 bilinear samples.
///
/// Numerics as the reference (NNAPI RoiAlign.cpp): per ROI, start = box * (1 / ratio) (for the
/// 16-bit boxes: float(q) * (1 / ratio) * 0.125), size = max(end - start, 1), step = size /
/// out, sampling ratio = the given one or, when 0, ceil(step); bin = step / samples; the sample
/// (yi, xi) of output (i, j) is at hStart + bin / 2 + bin * yi with hStart = step * i + start;
/// x1 = floor(x), x2 = x1 + 1, dx = x - x1, and a sample whose x1 >= width - 1 reads column
/// width - 1 with dx = 0 (rows likewise). Float: sum over samples of (w00 v00 + w01 v01 + w10 v10
/// + w11 v11) in that order, divided by the sample count (FLOAT16 computed in float, rounded
/// once). 8-bit: each weight quantized as round(w / (1 / 255)), the products with (v - zero
/// point) summed in int32, then scaled by the multiplier in_scale * (1/255) / out_scale /
/// samples (computed per ROI in float, TFLite QuantizeMultiplierSmallerThanOne, which fails for
/// a multiplier >= 1), plus the output zero point, clamped.
///
/// The reference's runtime checks: rank 4, boxes [num_rois, 4], batch index [num_rois], batches,
/// height, width, depth > 0, output size > 0, ratios > 0, sampling ratios >= 0; per ROI the batch
/// index in range, coordinates >= 0 (float boxes), scaled coordinates within the image and x1 <=
/// x2, y1 <= y2 (a NaN fails these). nnhal also refuses non-finite ratios, a sample count whose
/// product overflows int32, and saturates an 8-bit accumulator that would overflow int32 (the
/// reference's overflow is undefined there).

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/quantization.hpp"
#include "nnhal/kernels/common/roi.hpp"
#include "nnhal/kernels/common/window.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/roi_align.hpp"

namespace nnhal::kernels::roi_align {

inline constexpr const char* kName = "ROI_ALIGN";

/// The scalars of a ROI_ALIGN node: those it shares with ROI_POOLING, and the sampling ratios
/// (inputs 7 and 8; 0 = adaptive).
struct Params : roi::PooledParams {
  std::int32_t h_samples = 0, w_samples = 0;
};

template <OperandType T>
inline Expected<Params> read_params(const NodeIO& io) {
  auto shared = roi::read_pooled_params<T>(io, 9, kName);
  if (!shared) return std::move(shared.error());
  Params p;
  static_cast<roi::PooledParams&>(p) = *shared;
  p.h_samples = io.scalar<OperandType::INT32>(7);
  p.w_samples = io.scalar<OperandType::INT32>(8);
  if (p.h_samples < 0 || p.w_samples < 0)
    return NNHAL_INVALID("%s sampling ratios %" PRId32 ", %" PRId32 " are negative", kName,
                         p.h_samples, p.w_samples);
  return p;
}

/// Output shape [num_rois, out_h, out_w, depth] in the input's layout.
template <OperandType T>
inline Status infer(const NodeIO& io) {
  auto p = read_params<T>(io);
  if (!p) return std::move(p.error());
  return roi::infer_pooled(io, *p, kName);
}

/// The geometry of one ROI, computed as the reference does.
struct RoiGeometry {
  float w_start = 0, h_start = 0, w_step = 0, h_step = 0, w_bin = 0, h_bin = 0;
  std::uint32_t w_samples = 0, h_samples = 0;
  std::int32_t count = 0;
};

/// One bilinear sample: the four element offsets (relative to the batch image, channel 0) and
/// their weights, in the reference's order (y1x1, y1x2, y2x1, y2x2).
struct Sample {
  std::size_t off[4];
  float w[4];
};

inline Sample sample_at(float y, float x, const window::Image& im) noexcept {
  auto x1 = static_cast<std::uint32_t>(std::floor(x));
  auto y1 = static_cast<std::uint32_t>(std::floor(y));
  std::uint32_t x2 = x1 + 1, y2 = y1 + 1;
  float dx1 = x - static_cast<float>(x1);
  float dy1 = y - static_cast<float>(y1);
  if (x1 >= im.w - 1) {
    x1 = x2 = im.w - 1;
    dx1 = 0;
  }
  if (y1 >= im.h - 1) {
    y1 = y2 = im.h - 1;
    dy1 = 0;
  }
  const float dx2 = 1.0f - dx1, dy2 = 1.0f - dy1;
  Sample s;
  s.w[0] = dx2 * dy2, s.w[1] = dx1 * dy2, s.w[2] = dx2 * dy1, s.w[3] = dx1 * dy1;
  s.off[0] = im.at(0, y1, x1, 0), s.off[1] = im.at(0, y1, x2, 0);
  s.off[2] = im.at(0, y2, x1, 0), s.off[3] = im.at(0, y2, x2, 0);
  return s;
}

/// Reads and checks ROI r and computes its geometry.
template <OperandType T>
inline Expected<RoiGeometry> geometry(const NodeIO& io, std::size_t r, const window::Image& im, const Params& p,
                                      std::uint32_t out_h, std::uint32_t out_w) {
  constexpr OperandType B = roi::kBoxType<T>;
  const element_t<B>* box = io.in_data<B>(1) + r * 4;
  const float h_scale = 1.0f / p.h_ratio, w_scale = 1.0f / p.w_ratio;
  float ws = 0, hs = 0, we = 0, he = 0;
  if constexpr (roi::kQuantized<T>) {
    ws = static_cast<float>(box[0]) * w_scale * 0.125f;
    hs = static_cast<float>(box[1]) * h_scale * 0.125f;
    we = static_cast<float>(box[2]) * w_scale * 0.125f;
    he = static_cast<float>(box[3]) * h_scale * 0.125f;
  } else {
    const float b0 = roi::to_float(box[0], 1, 0), b1 = roi::to_float(box[1], 1, 0);
    const float b2 = roi::to_float(box[2], 1, 0), b3 = roi::to_float(box[3], 1, 0);
    if (!(b0 >= 0) || !(b1 >= 0) || !(b2 >= 0) || !(b3 >= 0))
      return NNHAL_INVALID("%s roi %zu has a negative or NaN coordinate", kName, r);
    ws = b0 * w_scale, hs = b1 * h_scale, we = b2 * w_scale, he = b3 * h_scale;
  }
  const auto W = static_cast<float>(im.w), H = static_cast<float>(im.h);
  if (!(ws <= W) || !(hs <= H) || !(we <= W) || !(he <= H))
    return NNHAL_INVALID("%s roi %zu lies outside the %" PRIu32 " x %" PRIu32 " input", kName, r,
                         im.h, im.w);
  if (!(ws <= we) || !(hs <= he)) return NNHAL_INVALID("%s roi %zu is inverted", kName, r);
  RoiGeometry g;
  g.w_start = ws, g.h_start = hs;
  const float roi_w = std::max(we - ws, 1.0f), roi_h = std::max(he - hs, 1.0f);
  g.w_step = roi_w / static_cast<float>(out_w);
  g.h_step = roi_h / static_cast<float>(out_h);
  g.w_samples = p.w_samples > 0 ? static_cast<std::uint32_t>(p.w_samples)
                                : static_cast<std::uint32_t>(std::ceil(g.w_step));
  g.h_samples = p.h_samples > 0 ? static_cast<std::uint32_t>(p.h_samples)
                                : static_cast<std::uint32_t>(std::ceil(g.h_step));
  const std::uint64_t count = std::uint64_t{g.w_samples} * g.h_samples;
  if (count == 0 || count > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max()))
    return NNHAL_INVALID("%s roi %zu: %" PRIu32 " x %" PRIu32 " samples per bin is out of range",
                         kName, r, g.h_samples, g.w_samples);
  g.count = static_cast<std::int32_t>(count);
  g.w_bin = g.w_step / static_cast<float>(g.w_samples);
  g.h_bin = g.h_step / static_cast<float>(g.h_samples);
  return g;
}

/// Channels summed together per sample (their sums live on the stack).
inline constexpr std::uint32_t kBlock = 64;

template <OperandType T>
Status kernel(const NodeIO& io) {
  using E = element_t<T>;
  using Acc = std::conditional_t<roi::kQuantized<T>, std::int64_t, float>;
  const RtOperand& in = io.input(0);
  const RtOperand& out = io.output(0);
  if (out.dims.element_count() == 0) return {};  // no ROIs: nothing to compute
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
  const std::int32_t* batch = io.in_data<OperandType::TENSOR_INT32>(2);
  for (std::size_t r = 0; r < num_rois; ++r) {
    if (batch[r] < 0 || static_cast<std::uint32_t>(batch[r]) >= si.n)
      return NNHAL_INVALID("%s roi %zu has batch index %" PRId32 ", outside [0, %" PRIu32 ")",
                           kName, r, batch[r], si.n);
    auto ge = geometry<T>(io, r, si, p, so.h, so.w);
    if (!ge) return std::move(ge.error());
    const RoiGeometry& g = *ge;
    const E* base = data + si.at(static_cast<std::size_t>(batch[r]), 0, 0, 0);
    quant::Multiplier m;
    if constexpr (roi::kQuantized<T>) {
      constexpr float kWeightScale = 1.0f / 255.0f;
      const float real = in.scale * kWeightScale / out.scale / static_cast<float>(g.count);
      if (!(real >= 0.0f) || real >= 1.0f)
        return NNHAL_INVALID("%s requantization multiplier %g is not in [0, 1)", kName, static_cast<double>(real));
      m = quant::quantize_multiplier(real);
    }
    for (std::uint32_t i = 0; i < so.h; ++i) {
      for (std::uint32_t j = 0; j < so.w; ++j) {
        const float w_start = g.w_step * static_cast<float>(j) + g.w_start;
        const float h_start = g.h_step * static_cast<float>(i) + g.h_start;
        E* o = dst + so.at(r, i, j, 0);
        // Channels in blocks of kBlock with their sums on the stack: each sample's position and
        // weights are computed once per block, and every channel still sums its samples in the
        // reference's order.
        for (std::uint32_t k0 = 0; k0 < si.c; k0 += kBlock) {
          const std::uint32_t kn = std::min<std::uint32_t>(kBlock, si.c - k0);
          Acc acc[kBlock];
          for (std::uint32_t k = 0; k < kn; ++k) acc[k] = 0;
          for (std::uint32_t yi = 0; yi < g.h_samples; ++yi) {
            for (std::uint32_t xi = 0; xi < g.w_samples; ++xi) {
              const float y = h_start + g.h_bin / 2 + g.h_bin * static_cast<float>(yi);
              const float x = w_start + g.w_bin / 2 + g.w_bin * static_cast<float>(xi);
              const Sample s = sample_at(y, x, si);
              if constexpr (roi::kQuantized<T>) {
                std::int32_t wq[4];
                for (int c = 0; c < 4; ++c) wq[c] = static_cast<std::int32_t>(std::round(s.w[c] / (1.0f / 255.0f)));
                for (std::uint32_t k = 0; k < kn; ++k) {
                  const std::size_t kc = (k0 + k) * si.sc;
                  std::int32_t interp = 0;
                  for (int c = 0; c < 4; ++c)
                    interp += wq[c] * (static_cast<std::int32_t>(base[s.off[c] + kc]) - in.zero_point);
                  acc[k] += interp;
                }
              } else {
                for (std::uint32_t k = 0; k < kn; ++k) {
                  const std::size_t kc = (k0 + k) * si.sc;
                  float interp = 0;
                  for (int c = 0; c < 4; ++c) interp += s.w[c] * roi::to_float(base[s.off[c] + kc], 1, 0);
                  acc[k] += interp;
                }
              }
            }
          }
          for (std::uint32_t k = 0; k < kn; ++k) {
            E& dst_k = o[(k0 + k) * so.sc];
            if constexpr (roi::kQuantized<T>) {
              constexpr std::int64_t lo = std::numeric_limits<std::int32_t>::min();
              constexpr std::int64_t hi = std::numeric_limits<std::int32_t>::max();
              const std::int64_t a = acc[k] < lo ? lo : (acc[k] > hi ? hi : acc[k]);
              std::int32_t v =
                  quant::multiply_by_quantized_multiplier(static_cast<std::int32_t>(a), m.value, m.shift) + out.zero_point;
              constexpr std::int32_t qlo = std::numeric_limits<E>::lowest(), qhi = std::numeric_limits<E>::max();
              v = v < qlo ? qlo : (v > qhi ? qhi : v);
              dst_k = static_cast<E>(v);
            } else {
              dst_k = roi::from_float<E>(acc[k] / static_cast<float>(g.count), 1, 0);
            }
          }
        }
      }
    }
  }
  return {};
}

/// ROI_ALIGN's kernels, keyed by the feature map's type.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                                    OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_ASYMM_SIGNED};

  static Status infer(const NodeIO& io) {
    switch (io.input(0).type) {
      case OperandType::TENSOR_FLOAT16: return roi_align::infer<OperandType::TENSOR_FLOAT16>(io);
      default: return roi_align::infer<OperandType::TENSOR_FLOAT32>(io);
    }
  }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &kernel<T>;
  }
};

}  // namespace nnhal::kernels::roi_align

namespace nnhal {

template <>
struct Kernels<OperationType::ROI_ALIGN> : kernels::roi_align::Family {};
static_assert(kernels_cover_row<OperationType::ROI_ALIGN>());

}  // namespace nnhal
