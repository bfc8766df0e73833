#pragma once
/// \file
/// The resize core shared by RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR: reading the size or
/// scale scalars and the layout / align_corners / half_pixel_centers flags, the output shape,
/// and one kernel per method and element type over either layout (NHWC rows are walked pixel
/// by pixel with the channels innermost and contiguous).
///
/// Inputs: 0 the 4-D image; 1 output width and 2 output height, both INT32 (the size form) or
/// both FLOAT32 / FLOAT16 (the scale form: output = floor(float(in) * scale), the scale widened
/// to float first); 3 layout (optional for RESIZE_BILINEAR); 4 align_corners, 5
/// half_pixel_centers (optional, 1.3). The reference's runtime checks: rank 4; not both
/// align_corners and half_pixel_centers; height, width and depth > 0 (only the batch may be 0);
/// output height and width > 0. nnhal also refuses a scale whose product is not finite or does
/// not fit INT32 (the reference converts it to int32 unchecked) and outputs whose size
/// overflows.
///
/// Coordinates, as the reference (NNAPI ResizeImageOps.cpp, TFLite reference_ops):
///   scale = (align_corners && out > 1) ? (in - 1) / float(out - 1) : in / float(out)
/// computed from the actual sizes (also in the scale form: the given scale only sets the output
/// size). Bilinear: v = half_pixel_centers ? (o + 0.5) * scale - 0.5 : o * scale;
/// lo = max(int(floor(v)), 0), hi = min(int(ceil(v)), in - 1), weight v - lo (so with
/// half-pixel centres a negative v gives weights 1 - v and v on the same element), and
///   out = in[y0][x0] * (1 - wy) * (1 - wx) + in[y1][x0] * wy * (1 - wx)
///       + in[y0][x1] * (1 - wy) * wx + in[y1][x1] * wy * wx  (+ 0.5 for 8-bit types)
/// in float, in that order; 8-bit results are then converted by truncation toward zero (the
/// reference's static_cast), so "+ 0.5" rounds half up for non-negative values only: a
/// negative QUANT8_ASYMM_SIGNED result moves toward zero (-127.5 becomes -127). FLOAT16 is
/// computed in float without the offset and rounded once. Nearest neighbour (NNAPI's own loop,
/// not TFLite's): v = half_pixel_centers ? (o + 0.5) * scale : o * scale, index =
/// min(align_corners ? int(round(v)) : int(floor(v)), in - 1), and max(index, 0) with
/// half-pixel centres.

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "nnhal/core/half.hpp"
#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/window.hpp"
#include "nnhal/kernels/kernel.hpp"

namespace nnhal::kernels::resize {

/// The two resize methods.
enum class Method { kBilinear, kNearest };

constexpr const char* name(Method m) noexcept {
  return m == Method::kBilinear ? "RESIZE_BILINEAR" : "RESIZE_NEAREST_NEIGHBOR";
}

/// The flags of a resize node.
struct Flags {
  bool nchw = false, align_corners = false, half_pixel_centers = false;
};

inline Flags read_flags(const NodeIO& io) noexcept {
  Flags f;
  f.nchw = layout_nchw(io, 3);
  f.align_corners = io.has_input(4) && io.scalar<OperandType::BOOL>(4) != 0;
  f.half_pixel_centers = io.has_input(5) && io.scalar<OperandType::BOOL>(5) != 0;
  return f;
}

/// One output extent from input 1 (width) or 2 (height): the INT32 size, or floor(in * scale).
inline Expected<std::uint32_t> output_extent(const NodeIO& io, std::size_t i, std::uint32_t in, const char* op,
                                             const char* what) {
  const OperandType t = io.input(i).type;
  std::int64_t size = 0;
  if (t == OperandType::INT32) {
    size = io.scalar<OperandType::INT32>(i);
  } else {
    const float scale = t == OperandType::FLOAT16 ? static_cast<float>(io.scalar<OperandType::FLOAT16>(i))
                                                  : io.scalar<OperandType::FLOAT32>(i);
    const float f = std::floor(static_cast<float>(in) * scale);
    if (!std::isfinite(f) || f >= 2147483648.0f || f < -2147483648.0f)  // int32's range
      return NNHAL_FAILURE("%s %s scale %g gives an output size out of range", op, what, static_cast<double>(scale));
    size = static_cast<std::int64_t>(f);
  }
  if (size <= 0) return NNHAL_FAILURE("%s output %s %lld is not positive", op, what, static_cast<long long>(size));
  return static_cast<std::uint32_t>(size);
}

/// Output shape [batches, new_h, new_w, depth] in the input's layout.
inline Status infer(const NodeIO& io, Method m) {
  const char* op = name(m);
  const Dims& d = io.input(0).dims;
  if (d.rank() != 4) return NNHAL_FAILURE("%s input has rank %zu, expected 4", op, d.rank());
  const Flags f = read_flags(io);
  if (f.align_corners && f.half_pixel_centers)
    return NNHAL_FAILURE("%s: align_corners and half_pixel_centers are both true", op);
  const window::Image im = window::Image::of(d, f.nchw);
  if (im.h == 0 || im.w == 0 || im.c == 0)
    return NNHAL_FAILURE("%s input has an empty height, width or depth (%" PRIu32 " x %" PRIu32
                         " x %" PRIu32 ")",
                         op, im.h, im.w, im.c);
  auto w = output_extent(io, 1, im.w, op, "width");
  if (!w) return std::move(w.error());
  auto h = output_extent(io, 2, im.h, op, "height");
  if (!h) return std::move(h.error());
  return set_output(io, 0, window::Image::dims(f.nchw, im.n, *h, *w, im.c));
}

/// The reference's scale of one axis.
constexpr float axis_scale(std::uint32_t in, std::uint32_t out, bool align_corners) noexcept {
  return align_corners && out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1)
                                  : static_cast<float>(in) / static_cast<float>(out);
}

/// Bilinear source of one output coordinate: the lower and upper input index and the weight of
/// the upper one (v - lower).
struct Lerp {
  std::size_t lo, hi;
  float w;
};

inline Lerp bilinear_source(std::size_t o, float scale, bool half_pixel, std::uint32_t in) noexcept {
  const float v = half_pixel ? (static_cast<float>(o) + 0.5f) * scale - 0.5f : static_cast<float>(o) * scale;
  const auto fl = static_cast<std::int64_t>(std::floor(v));
  const auto ce = static_cast<std::int64_t>(std::ceil(v));
  const std::int64_t lo = fl < 0 ? 0 : fl;
  const std::int64_t hi = ce < static_cast<std::int64_t>(in) - 1 ? ce : static_cast<std::int64_t>(in) - 1;
  return {static_cast<std::size_t>(lo < static_cast<std::int64_t>(in) ? lo : in - 1),
          static_cast<std::size_t>(hi < 0 ? 0 : hi), v - static_cast<float>(lo)};
}

/// Nearest-neighbour source of one output coordinate.
inline std::size_t nearest_source(std::size_t o, float scale, bool align_corners, bool half_pixel,
                                  std::uint32_t in) noexcept {
  const float v = half_pixel ? (static_cast<float>(o) + 0.5f) * scale : static_cast<float>(o) * scale;
  std::int64_t i = static_cast<std::int64_t>(align_corners ? std::round(v) : std::floor(v));
  if (i > static_cast<std::int64_t>(in) - 1) i = static_cast<std::int64_t>(in) - 1;
  if (i < 0) i = 0;  // only reachable with half-pixel centres, where the reference clamps too
  return static_cast<std::size_t>(i);
}

/// A float converted to an 8-bit type by truncation toward zero, as the reference's cast (kept
/// within the type's range, where the cast would be undefined).
template <class E>
inline E truncate_to(float v) noexcept {
  float t = std::trunc(v);
  constexpr float lo = std::numeric_limits<E>::lowest(), hi = std::numeric_limits<E>::max();
  t = t < lo ? lo : (t > hi ? hi : t);
  return static_cast<E>(t);
}

/// Resizes `in` (image si) into `out` (image so) with method M, channels kUnit ? 1 : sc
/// elements apart (NHWC rows then run with contiguous, vectorizable channel loops).
template <Method M, bool kUnit, class E>
void run_layout(const E* in, const window::Image& si, E* out, const window::Image& so, Flags f) noexcept {
  constexpr bool kFloat = std::is_same_v<E, float> || std::is_same_v<E, Half>;
  const std::size_t isc = kUnit ? 1 : si.sc, osc = kUnit ? 1 : so.sc;
  const float sy = axis_scale(si.h, so.h, f.align_corners), sx = axis_scale(si.w, so.w, f.align_corners);
  for (std::size_t b = 0; b < so.n; ++b) {
    for (std::size_t y = 0; y < so.h; ++y) {
      if constexpr (M == Method::kNearest) {
        const std::size_t iy = nearest_source(y, sy, f.align_corners, f.half_pixel_centers, si.h);
        for (std::size_t x = 0; x < so.w; ++x) {
          const std::size_t ix = nearest_source(x, sx, f.align_corners, f.half_pixel_centers, si.w);
          const E* src = in + si.at(b, iy, ix, 0);
          E* dst = out + so.at(b, y, x, 0);
          if constexpr (kUnit) {
            std::memcpy(dst, src, so.c * sizeof(E));
          } else {
            for (std::size_t c = 0; c < so.c; ++c) dst[c * osc] = src[c * isc];
          }
        }
      } else {
        const Lerp ly = bilinear_source(y, sy, f.half_pixel_centers, si.h);
        const float wy = ly.w, wy1 = 1 - ly.w;
        for (std::size_t x = 0; x < so.w; ++x) {
          const Lerp lx = bilinear_source(x, sx, f.half_pixel_centers, si.w);
          const float wx = lx.w, wx1 = 1 - lx.w;
          const E* p00 = in + si.at(b, ly.lo, lx.lo, 0);
          const E* p10 = in + si.at(b, ly.hi, lx.lo, 0);
          const E* p01 = in + si.at(b, ly.lo, lx.hi, 0);
          const E* p11 = in + si.at(b, ly.hi, lx.hi, 0);
          E* dst = out + so.at(b, y, x, 0);
          for (std::size_t c = 0; c < so.c; ++c) {
            const std::size_t k = c * isc;
            const float v = static_cast<float>(p00[k]) * wy1 * wx1 + static_cast<float>(p10[k]) * wy * wx1 +
                            static_cast<float>(p01[k]) * wy1 * wx + static_cast<float>(p11[k]) * wy * wx;
            if constexpr (kFloat) {
              dst[c * osc] = E(v);
            } else {
              dst[c * osc] = truncate_to<E>(v + 0.5f);
            }
          }
        }
      }
    }
  }
}

/// Resizes `in` (image si) into `out` (image so) with method M. E is float, Half, uint8_t or
/// int8_t.
template <Method M, class E>
void run(const E* in, const window::Image& si, E* out, const window::Image& so, Flags f) noexcept {
  if (!f.nchw)  // (an NCHW image of one pixel has unit channel stride too, its output may not)
    run_layout<M, true>(in, si, out, so, f);
  else
    run_layout<M, false>(in, si, out, so, f);
}

/// The kernel of method M for operand type T.
template <Method M, OperandType T>
Status kernel(const NodeIO& io) {
  const RtOperand& out = io.output(0);
  if (out.dims.element_count() == 0) return {};  // zero-sized batch: nothing to compute
  const Flags f = read_flags(io);
  const window::Image si = window::Image::of(io.input(0).dims, f.nchw);
  const window::Image so = window::Image::of(out.dims, f.nchw);
  if (si.n != so.n || si.c != so.c || si.h == 0 || si.w == 0)
    return NNHAL_FAILURE("%s output shape does not match the input", name(M));
  run<M>(io.in_data<T>(0), si, io.out_data<T>(0), so, f);
  return {};
}

/// A resize operation's kernels, keyed by the input type.
template <Method M>
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                                    OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_ASYMM_SIGNED};
  static Status infer(const NodeIO& io) { return resize::infer(io, M); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &kernel<M, T>;
  }
};

}  // namespace nnhal::kernels::resize
