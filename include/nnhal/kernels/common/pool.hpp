#pragma once
/// \file
/// The pooling core shared by AVERAGE_POOL_2D, L2_POOL_2D and MAX_POOL_2D: reading and checking
/// the scalars (explicit or implicit padding, strides, filter size, activation, layout), the
/// output shape, one plain kernel per pool kind and element type over either layout, and the
/// NHWC fast path through the SIMD family simd::pool (nnhal/simd/pool.hpp).
///
/// Numerics follow the Android reference (NNAPI Pooling.cpp over TFLite's pooling kernels):
/// - a window covers only the valid (unpadded) input elements: padding is never read and never
///   counted, so AVERAGE and L2 divide by the number of valid elements;
/// - float AVERAGE sums the window in row-major order and divides once; L2 sums squares the
///   same way and takes sqrt(sum / count); MAX keeps `v > m ? v : m` from the lowest value;
///   then the fused activation clamps. FLOAT16 is computed in float and rounded once;
/// - quantized AVERAGE (the output keeps the input's scale and zero point, so it works on the
///   stored values) rounds the sum's quotient half away from zero:
///   (sum + count / 2) / count for a positive sum, (sum - count / 2) / count otherwise, in
///   integer division. For QUANT8_ASYMM (sums never negative) that is the uint8 kernel's
///   (sum + count / 2) / count; for QUANT8_ASYMM_SIGNED it is reference_integer_ops'
///   rounding. Sums are 64-bit here (the reference's 32-bit sum could overflow for windows of
///   more than 2^23 elements);
/// - quantized MAX is the exact maximum, then the activation clamps.
/// Runtime checks (Pooling.cpp prepare): rank 4; height, width and depth > 0 (only the batch
/// may be 0); paddings >= 0; strides and filter > 0; the filter larger than each padding of its
/// axis (filter_w > pad_left and > pad_right, filter_h > pad_top and > pad_bottom), which also
/// guarantees every window holds at least one valid element. The reference passes paddings
/// to TFLite as int16 (silently truncating paddings above 32767); nnhal keeps them 32-bit.

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "nnhal/core/half.hpp"
#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/activation.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/quantization.hpp"
#include "nnhal/kernels/common/simd_params.hpp"
#include "nnhal/kernels/common/window.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/simd/pool.hpp"

namespace nnhal::kernels::pool {

/// The three pooling operations.
enum class Kind { kAverage, kMax, kL2 };

/// Name of a pool kind in messages.
constexpr const char* name(Kind k) noexcept {
  return k == Kind::kAverage ? "AVERAGE_POOL_2D" : (k == Kind::kMax ? "MAX_POOL_2D" : "L2_POOL_2D");
}

/// Everything a pooling kernel needs: the scalars, the resolved window geometry and the input
/// image.
struct Setup {
  window::Scalars scalars;
  window::Geometry geometry;
  window::Image input;
};

/// Reads and checks a pooling node's scalars against its input shape (see the file comment for
/// the checks). `op` names the operation in messages.
inline Expected<Setup> setup(const NodeIO& io, const char* op) {
  const Dims& d = io.input(0).dims;
  if (d.rank() != 4) return NNHAL_FAILURE("%s input has rank %zu, expected 4", op, d.rank());
  auto s = window::read_scalars(io, 1, 2, op);
  if (!s) return std::move(s.error());
  Setup out;
  out.scalars = *s;
  out.input = window::Image::of(d, s->nchw);
  const window::Image& im = out.input;
  if (im.h == 0 || im.w == 0 || im.c == 0)
    return NNHAL_FAILURE("%s input has an empty height, width or depth (%" PRIu32 " x %" PRIu32
                         " x %" PRIu32 ")",
                         op, im.h, im.w, im.c);
  const std::int32_t filter_w = s->extra[0], filter_h = s->extra[1];
  auto g = window::resolve(*s, im.h, im.w, filter_h, filter_w, op);
  if (!g) return std::move(g.error());
  if (filter_w <= g->pad_w.head || filter_w <= g->pad_w.tail || filter_h <= g->pad_h.head ||
      filter_h <= g->pad_h.tail)
    return NNHAL_FAILURE(
        "%s filter (%" PRId32 " x %" PRId32 ") must be larger than each padding (left %" PRId32
        ", right %" PRId32 ", top %" PRId32 ", bottom %" PRId32 ")",
        op, filter_h, filter_w, g->pad_w.head, g->pad_w.tail, g->pad_h.head, g->pad_h.tail);
  out.geometry = *g;
  return out;
}

/// Output shape: [batches, out_h, out_w, depth] in the input's layout.
inline Status infer(const NodeIO& io, Kind kind) {
  auto s = setup(io, name(kind));
  if (!s) return std::move(s.error());
  const window::Image& im = s->input;
  return set_output(io, 0, window::Image::dims(s->scalars.nchw, im.n, s->geometry.out_h, s->geometry.out_w, im.c));
}

/// The valid part of one output element's window: input rows [y0, y1) and columns [x0, x1).
struct Span {
  std::int64_t y0, y1, x0, x1;
  constexpr std::int64_t count() const noexcept { return (y1 - y0) * (x1 - x0); }
};

/// The window of output (oy, ox), clipped to the input.
constexpr Span window_of(const window::Geometry& g, std::int64_t in_h, std::int64_t in_w, std::int64_t oy,
                         std::int64_t ox) noexcept {
  const std::int64_t ys = oy * g.stride_h - g.pad_h.head, xs = ox * g.stride_w - g.pad_w.head;
  Span s;
  s.y0 = ys < 0 ? 0 : ys;
  s.x0 = xs < 0 ? 0 : xs;
  s.y1 = ys + g.filter_h < in_h ? ys + g.filter_h : in_h;
  s.x1 = xs + g.filter_w < in_w ? xs + g.filter_w : in_w;
  if (s.y1 < s.y0) s.y1 = s.y0;
  if (s.x1 < s.x0) s.x1 = s.x0;
  return s;
}

/// Rounded quotient of a quantized average, half away from zero (see the file comment).
constexpr std::int64_t rounded_average(std::int64_t sum, std::int64_t count) noexcept {
  return sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
}

/// The plain kernel: every output element of `out` (image `so`) from `in` (image `si`), in
/// either layout. E is float, Half, uint8_t or int8_t; floats are computed in float and
/// clamped to `fr`, 8-bit values in integers and clamped to `qr`.
template <Kind K, class E>
void reference(const E* in, const window::Image& si, E* out, const window::Image& so, const window::Geometry& g,
               FloatRange fr, quant::QuantRange qr) noexcept {
  constexpr bool kFloat = std::is_same_v<E, float> || std::is_same_v<E, Half>;
  const auto one = [&](std::size_t b, std::size_t oy, std::size_t ox, std::size_t c) {
    const Span w = window_of(g, si.h, si.w, static_cast<std::int64_t>(oy), static_cast<std::int64_t>(ox));
    const std::int64_t count = w.count();
    E& dst = out[so.at(b, oy, ox, c)];
    if constexpr (kFloat) {
      float acc = K == Kind::kMax ? std::numeric_limits<float>::lowest() : 0.0f;
      for (std::int64_t y = w.y0; y < w.y1; ++y)
        for (std::int64_t x = w.x0; x < w.x1; ++x) {
          const float v = static_cast<float>(in[si.at(b, static_cast<std::size_t>(y), static_cast<std::size_t>(x), c)]);
          if constexpr (K == Kind::kMax) {
            acc = v > acc ? v : acc;
          } else if constexpr (K == Kind::kAverage) {
            acc += v;
          } else {
            acc += v * v;
          }
        }
      float r = acc;
      if constexpr (K == Kind::kAverage) r = count > 0 ? acc / static_cast<float>(count) : 0.0f;
      if constexpr (K == Kind::kL2) r = count > 0 ? std::sqrt(acc / static_cast<float>(count)) : 0.0f;
      dst = E(fr.apply(r));
    } else {
      std::int64_t acc = K == Kind::kMax ? std::numeric_limits<E>::lowest() : 0;
      for (std::int64_t y = w.y0; y < w.y1; ++y)
        for (std::int64_t x = w.x0; x < w.x1; ++x) {
          const std::int64_t v = in[si.at(b, static_cast<std::size_t>(y), static_cast<std::size_t>(x), c)];
          if constexpr (K == Kind::kMax) {
            acc = v > acc ? v : acc;
          } else {
            acc += v;
          }
        }
      if constexpr (K == Kind::kAverage) acc = count > 0 ? rounded_average(acc, count) : 0;
      acc = acc < qr.min ? qr.min : (acc > qr.max ? qr.max : acc);
      dst = static_cast<E>(acc);
    }
  };
  if (si.nhwc()) {
    for (std::size_t b = 0; b < so.n; ++b)
      for (std::size_t oy = 0; oy < so.h; ++oy)
        for (std::size_t ox = 0; ox < so.w; ++ox)
          for (std::size_t c = 0; c < so.c; ++c) one(b, oy, ox, c);
  } else {
    for (std::size_t b = 0; b < so.n; ++b)
      for (std::size_t c = 0; c < so.c; ++c)
        for (std::size_t oy = 0; oy < so.h; ++oy)
          for (std::size_t ox = 0; ox < so.w; ++ox) one(b, oy, ox, c);
  }
}

/// The NHWC geometry in the form the SIMD family takes.
inline simd::PoolArgs simd_args(const window::Image& si, const window::Image& so, const window::Geometry& g) noexcept {
  simd::PoolArgs a;
  a.batches = so.n, a.in_h = si.h, a.in_w = si.w, a.channels = si.c, a.out_h = so.h, a.out_w = so.w;
  a.stride_h = g.stride_h, a.stride_w = g.stride_w, a.filter_h = g.filter_h, a.filter_w = g.filter_w;
  a.pad_top = g.pad_h.head, a.pad_left = g.pad_w.head;
  return a;
}

/// Whether the SIMD family handles kind K on element type E (NHWC only): float32 max, average
/// and L2; 8-bit max and average.
template <Kind K, class E>
inline constexpr bool kHasSimd = std::is_same_v<E, float> ||
                                 ((std::is_same_v<E, std::uint8_t> || std::is_same_v<E, std::int8_t>) && K != Kind::kL2);

/// Runs one SIMD entry of the family for kind K and element type E.
template <Kind K, class E>
void run_simd(const simd::Pool& t, const simd::PoolArgs& a, const E* in, E* out, FloatRange fr,
              quant::QuantRange qr) noexcept {
  if constexpr (std::is_same_v<E, float>) {
    (K == Kind::kMax ? t.max_f32 : (K == Kind::kAverage ? t.avg_f32 : t.l2_f32))(a, in, out, fr.min, fr.max);
  } else if constexpr (std::is_same_v<E, std::uint8_t>) {
    (K == Kind::kMax ? t.max_u8 : t.avg_u8)(a, in, out, qr.min, qr.max);
  } else {
    (K == Kind::kMax ? t.max_i8 : t.avg_i8)(a, in, out, qr.min, qr.max);
  }
}

/// The kernel of pool kind K for operand type T.
template <Kind K, OperandType T>
Status kernel(const NodeIO& io) {
  using E = element_t<T>;
  auto s = setup(io, name(K));
  if (!s) return std::move(s.error());
  const RtOperand& out = io.output(0);
  if (out.dims.element_count() == 0) return {};  // zero-sized batch: nothing to compute
  const window::Image si = s->input;
  const window::Image so = window::Image::of(out.dims, s->scalars.nchw);
  if (so.n != si.n || so.c != si.c || so.h != s->geometry.out_h || so.w != s->geometry.out_w)
    return NNHAL_FAILURE("%s output shape does not match the window geometry", name(K));
  FloatRange fr = float_activation_range(s->scalars.activation);
  quant::QuantRange qr{0, 0};
  if constexpr (!std::is_same_v<E, float> && !std::is_same_v<E, Half>) {
    const auto storage = quant::storage_range<E>();
    qr = quant::activation_range(static_cast<FusedActivationFunc>(s->scalars.activation), out.scale,
                                 out.zero_point, storage.min, storage.max);
  }
  const E* x = io.in_data<T>(0);
  E* y = io.out_data<T>(0);
  if constexpr (kHasSimd<K, E>) {
    const simd::Pool* table = io.params<SimdParams<simd::Pool>>().simd;  // nullptr: reference kernels
    if (!s->scalars.nchw && table != nullptr) {
      run_simd<K>(*table, simd_args(si, so, s->geometry), x, y, fr, qr);
      return {};
    }
  }
  reference<K>(x, si, y, so, s->geometry, fr, qr);
  return {};
}

/// A pooling operation's kernels, keyed by the input type: kind K over `Types`.
template <Kind K, OperandType... Types>
struct Family : KernelFamily {
  static constexpr std::array types{Types...};
  static Status infer(const NodeIO& io) { return pool::infer(io, K); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare& prepare) {
    if constexpr (kHasSimd<K, element_t<T>>)
      prepare.store(prepare.reference ? SimdParams<simd::Pool>{nullptr} : simd_params(simd::pool()));
    return &kernel<K, T>;
  }
};

}  // namespace nnhal::kernels::pool
