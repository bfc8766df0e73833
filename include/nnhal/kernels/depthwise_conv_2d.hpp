#pragma once
/// \file
/// DEPTHWISE_CONV_2D kernels (the row: nnhal/ops/depthwise_conv_2d.hpp): shape inference, a plain
/// reference kernel per type for every layout and depth multiplier, and SIMD FLOAT32 and 8-bit
/// paths for NHWC data with depth multiplier 1 (simd::depthwise_f32, simd::depthwise_q8).
///
/// Numerics follow the Android reference (DepthwiseConv2D.cpp): float sums the products in tap
/// order, then adds the bias, then clamps (TFLite's DepthwiseConv); FLOAT16 is computed in float
/// and rounded once; the 8-bit kernels accumulate (x - x_zp) * (w - w_zp) in int32 over the taps
/// inside the input (padding contributes nothing, not a zero point), add the bias, rescale with
/// TFLite's MultiplyByQuantizedMultiplier, add the output zero point and clamp. QUANT8_ASYMM_SIGNED
/// with a same-type filter is computed by the reference on values shifted by 128 into uint8 with
/// zero points shifted alike; the shift cancels in every difference, so computing on int8 directly
/// gives the same results.
///
/// Checks as the reference's prepare / execution, reported as errors: filter [1, fh, fw, depth_out]
/// with depth_out = depth_in * multiplier and bias length depth_out; paddings below the effective
/// filter size; for a same-type 8-bit filter, bias scale = input scale * filter scale to 1e-6
/// relative (GetQuantizedConvolutionMultiplier; at prepare here, at execution there).
///
/// What is packed at prepare is the per-channel requantization (filter_requant::Tables). The
/// filter itself is not repacked: [1, fh, fw, depth_out] already holds one contiguous channel
/// vector per tap, the layout the NHWC kernels read, so a copy would cost memory and save nothing.

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/activation.hpp"
#include "nnhal/kernels/common/filter_requant.hpp"
#include "nnhal/kernels/common/quantization.hpp"
#include "nnhal/kernels/common/window.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/depthwise_conv_2d.hpp"
#include "nnhal/simd/depthwise_f32.hpp"
#include "nnhal/simd/depthwise_q8.hpp"

namespace nnhal::kernels::depthwise_conv_2d {

using filter_requant::QuantParams;
using filter_requant::from_float;
using filter_requant::multiplier_of;
using filter_requant::prepare_quant;
using filter_requant::requantize_acc;
using filter_requant::to_float;

inline constexpr const char* kName = "DEPTHWISE_CONV_2D";

/// The resolved problem: input and output images (layout strides), window geometry, the depth
/// multiplier and the activation code.
struct Conv {
  window::Image in, out;
  window::Geometry g;
  std::uint32_t multiplier = 1;
  std::int32_t activation = 0;
};

/// Reads the scalars and checks the shapes as the reference's prepare does: ranks 4, 4, 1;
/// filter [1, fh, fw, depth_out]; bias length depth_out; depth_in * multiplier == depth_out;
/// effective filter larger than each padding. Only the batch (or a spatial size) may be 0.
inline Expected<Conv> resolve(const NodeIO& io) {
  const Dims &in = io.input(0).dims, &f = io.input(1).dims, &bias = io.input(2).dims;
  if (in.rank() != 4) return NNHAL_FAILURE("%s input has rank %zu, expected 4", kName, in.rank());
  if (f.rank() != 4) return NNHAL_FAILURE("%s filter has rank %zu, expected 4", kName, f.rank());
  if (bias.rank() != 1) return NNHAL_FAILURE("%s bias has rank %zu, expected 1", kName, bias.rank());
  auto s = window::read_scalars(io, 3, 1, kName);
  if (!s) return std::move(s.error());
  Conv cv;
  if (s->extra[0] < 1)
    return NNHAL_FAILURE("%s has a non-positive depth multiplier %" PRId32, kName, s->extra[0]);
  cv.multiplier = static_cast<std::uint32_t>(s->extra[0]);
  cv.activation = s->activation;
  cv.in = window::Image::of(in, s->nchw);
  const std::uint32_t depth_out = f[3];
  if (f[0] != 1)
    return NNHAL_FAILURE("%s filter dimension 0 is %" PRIu32 ", expected 1", kName, f[0]);
  if (bias[0] != depth_out)
    return NNHAL_FAILURE("%s bias length %" PRIu32 " differs from the filter's depth %" PRIu32,
                         kName, bias[0], depth_out);
  if (std::uint64_t{cv.in.c} * cv.multiplier != depth_out)
    return NNHAL_FAILURE("%s input depth %" PRIu32 " times multiplier %" PRIu32
                         " differs from the filter's depth %" PRIu32,
                         kName, cv.in.c, cv.multiplier, depth_out);
  if (depth_out == 0) return NNHAL_FAILURE("%s has an empty filter depth", kName);
  if (f[1] > INT32_MAX || f[2] > INT32_MAX) return NNHAL_FAILURE("%s filter is too large", kName);
  auto g = window::resolve(*s, cv.in.h, cv.in.w, static_cast<std::int32_t>(f[1]), static_cast<std::int32_t>(f[2]), kName);
  if (!g) return std::move(g.error());
  cv.g = *g;
  const std::int64_t eff_w = window::effective_filter(g->filter_w, g->dilation_w);
  const std::int64_t eff_h = window::effective_filter(g->filter_h, g->dilation_h);
  if (!(eff_w > g->pad_w.head && eff_w > g->pad_w.tail && eff_h > g->pad_h.head && eff_h > g->pad_h.tail))
    return NNHAL_FAILURE("%s: a padding (%" PRId32 ", %" PRId32 ", %" PRId32 ", %" PRId32
                         ") is not smaller than the effective filter (%lld x %lld)",
                         kName, g->pad_w.head, g->pad_w.tail, g->pad_h.head, g->pad_h.tail,
                         static_cast<long long>(eff_h), static_cast<long long>(eff_w));
  cv.out = window::Image::of(window::Image::dims(s->nchw, cv.in.n, g->out_h, g->out_w, depth_out), s->nchw);
  return cv;
}

/// Output shape: [batch, out_h, out_w, depth_out] (NCHW: [batch, depth_out, out_h, out_w]).
inline Status infer(const NodeIO& io) {
  auto cv = resolve(io);
  if (!cv) return std::move(cv.error());
  RtOperand& out = io.output(0);
  out.dims = window::Image::dims(cv->in.nchw, cv->out.n, cv->out.h, cv->out.w, cv->out.c);
  out.rank_known = true;
  return {};
}

/// Taps k of one axis with 0 <= origin + k * dilation < size, as [lo, hi).
struct TapRange {
  std::int64_t lo, hi;
};
constexpr TapRange tap_range(std::int64_t origin, std::int64_t dilation, std::int64_t filter, std::int64_t size) noexcept {
  std::int64_t lo = origin < 0 ? (-origin + dilation - 1) / dilation : 0;
  std::int64_t hi = size - 1 - origin < 0 ? 0 : (size - 1 - origin) / dilation + 1;
  if (hi > filter) hi = filter;
  if (lo > hi) lo = hi;
  return {lo, hi};
}

/// The plain references' loops, any layout and multiplier: for each output (its index in the
/// output, its channel oc), `tap(acc, input index, filter index)` over the taps inside the input
/// in tap order, from acc = Acc{}, then `finish(acc, output index, oc)`.
template <class Acc, class Tap, class Finish>
void for_each_output(const Conv& cv, Tap&& tap, Finish&& finish) noexcept {
  const window::Geometry& g = cv.g;
  const std::size_t depth_out = cv.out.c;
  for (std::size_t b = 0; b < cv.out.n; ++b)
    for (std::size_t y = 0; y < cv.out.h; ++y) {
      const std::int64_t iy0 = static_cast<std::int64_t>(y) * g.stride_h - g.pad_h.head;
      const TapRange ty = tap_range(iy0, g.dilation_h, g.filter_h, cv.in.h);
      for (std::size_t x = 0; x < cv.out.w; ++x) {
        const std::int64_t ix0 = static_cast<std::int64_t>(x) * g.stride_w - g.pad_w.head;
        const TapRange tx = tap_range(ix0, g.dilation_w, g.filter_w, cv.in.w);
        for (std::size_t ic = 0; ic < cv.in.c; ++ic)
          for (std::size_t m = 0; m < cv.multiplier; ++m) {
            const std::size_t oc = ic * cv.multiplier + m;
            Acc acc{};
            for (std::int64_t ky = ty.lo; ky < ty.hi; ++ky) {
              const auto iy = static_cast<std::size_t>(iy0 + ky * g.dilation_h);
              for (std::int64_t kx = tx.lo; kx < tx.hi; ++kx) {
                const auto ix = static_cast<std::size_t>(ix0 + kx * g.dilation_w);
                tap(acc, cv.in.at(b, iy, ix, ic),
                    (static_cast<std::size_t>(ky) * g.filter_w + static_cast<std::size_t>(kx)) * depth_out + oc);
              }
            }
            finish(acc, cv.out.at(b, y, x, oc), oc);
          }
      }
    }
}

/// Plain reference for float and half, any layout and multiplier: per output, the sum of the
/// products over the taps inside the input (in tap order, in float), + bias, clamped, rounded
/// to E once. The SIMD kernel (simd::depthwise_f32) is checked against it.
template <class E>
void reference_float(const E* in, const E* filter, const E* bias, E* out, const Conv& cv) noexcept {
  const FloatRange r = float_activation_range(cv.activation);
  for_each_output<float>(
      cv, [&](float& sum, std::size_t i, std::size_t f) { sum += to_float(in[i]) * to_float(filter[f]); },
      [&](float sum, std::size_t o, std::size_t oc) { out[o] = from_float<E>(r.apply(sum + to_float(bias[oc]))); });
}

/// Node parameters.
struct Params {
  const simd::DepthwiseF32* simd = nullptr;
  const simd::DepthwiseQ8* simd_q8 = nullptr;
  QuantParams q{};
};

/// Plain 8-bit reference, any layout and multiplier. The int32 sums wrap (as the hardware does)
/// instead of overflowing into undefined behaviour.
template <class E, class F>
void reference_quant(const E* in, const F* filter, const std::int32_t* bias, E* out, const Conv& cv,
                     const QuantParams& p, const quant::Multiplier* table, quant::QuantRange range) noexcept {
  for_each_output<std::uint32_t>(
      cv,
      [&](std::uint32_t& acc, std::size_t i, std::size_t f) {
        const std::int32_t xv = in[i] + p.input_offset;
        const std::int32_t wv = filter[f] + p.filter_offset;
        acc += static_cast<std::uint32_t>(xv * wv);
      },
      [&](std::uint32_t acc, std::size_t o, std::size_t oc) {
        acc += static_cast<std::uint32_t>(bias[oc]);
        out[o] = requantize_acc<E>(acc, multiplier_of(p, table, oc), p.output_offset, range);
      });
}

/// Outputs below which a piece for another thread costs more than it saves.
inline constexpr std::size_t kMinPieceOutputs = 8192;

/// Output rows of `row_outputs` values each that make a piece worth a thread.
constexpr std::size_t min_rows_per_piece(std::size_t row_outputs) noexcept {
  return row_outputs == 0 ? 1 : (kMinPieceOutputs + row_outputs - 1) / row_outputs;
}

inline Status kernel_f32(const NodeIO& io) {
  auto cv = resolve(io);
  if (!cv) return std::move(cv.error());
  if (io.output(0).dims.element_count() == 0) return {};  // zero-sized: nothing to compute
  const float* in = io.in_data<OperandType::TENSOR_FLOAT32>(0);
  const float* filter = io.in_data<OperandType::TENSOR_FLOAT32>(1);
  const float* bias = io.in_data<OperandType::TENSOR_FLOAT32>(2);
  float* out = io.out_data<OperandType::TENSOR_FLOAT32>(0);
  if (!cv->in.nchw && cv->multiplier == 1) {
    const FloatRange r = float_activation_range(cv->activation);
    const window::Geometry& g = cv->g;
    const simd::DepthwiseF32Args args{in, filter, bias, out,
                                      cv->out.n, cv->in.h, cv->in.w, cv->in.c, cv->out.h, cv->out.w,
                                      static_cast<std::size_t>(g.filter_h), static_cast<std::size_t>(g.filter_w),
                                      g.stride_h, g.stride_w, g.dilation_h, g.dilation_w, g.pad_h.head, g.pad_w.head,
                                      r.min, r.max, 0, SIZE_MAX};
    const simd::DepthwiseF32& kernel = *io.params<Params>().simd;
    // Threads take ranges of output rows, at least kMinPieceOutputs outputs each.
    for_each_piece(io.parallel(), args.out_h, 1, min_rows_per_piece(args.out_w * args.channels),
                   [&](std::size_t begin, std::size_t end, std::size_t) {
                     simd::DepthwiseF32Args piece = args;
                     piece.row_begin = begin, piece.row_end = end;
                     kernel.run(piece);
                   });
    return {};
  }
  reference_float(in, filter, bias, out, *cv);
  return {};
}

/// reference_float alone: FLOAT16, and FLOAT32 when prepare asks for reference kernels
/// (KernelPrepare::reference).
template <OperandType T>
Status kernel_reference_float(const NodeIO& io) {
  auto cv = resolve(io);
  if (!cv) return std::move(cv.error());
  if (io.output(0).dims.element_count() == 0) return {};
  reference_float(io.in_data<T>(0), io.in_data<T>(1), io.in_data<T>(2), io.out_data<T>(0), *cv);
  return {};
}

/// The 8-bit kernel for input type T and filter type FT (T, or per-channel).
template <OperandType T, OperandType FT>
Status kernel_quant(const NodeIO& io) {
  using E = element_t<T>;
  using F = element_t<FT>;
  auto cv = resolve(io);
  if (!cv) return std::move(cv.error());
  const Params& params = io.params<Params>();
  const QuantParams& p = params.q;
  if (p.per_channel && p.channels != cv->out.c)
    return NNHAL_FAILURE("%s filter has %" PRIu32 " channel scales for %" PRIu32 " output channels",
                         kName, p.channels, cv->out.c);
  if (io.output(0).dims.element_count() == 0) return {};
  const filter_requant::Tables tables = filter_requant::tables_of(io.packed(), p.channels);
  const RtOperand& o = io.output(0);
  const auto storage = quant::storage_range<E>();
  const auto range = quant::activation_range(static_cast<FusedActivationFunc>(cv->activation), o.scale, o.zero_point,
                                             storage.min, storage.max);
  const E* in = io.in_data<T>(0);
  const F* filter = io.in_data<FT>(1);
  const std::int32_t* bias = io.in_data<OperandType::TENSOR_INT32>(2);
  E* out = io.out_data<T>(0);
  if (params.simd_q8 != nullptr && !cv->in.nchw && cv->multiplier == 1 && p.channels == cv->out.c &&
      tables.multiplier != nullptr) {
    const window::Geometry& g = cv->g;
    const simd::DepthwiseQ8Args args{in, filter, bias, out,
                                     cv->out.n, cv->in.h, cv->in.w, cv->in.c, cv->out.h, cv->out.w,
                                     static_cast<std::size_t>(g.filter_h), static_cast<std::size_t>(g.filter_w),
                                     g.stride_h, g.stride_w, g.dilation_h, g.dilation_w, g.pad_h.head, g.pad_w.head,
                                     p.input_offset, p.filter_offset, p.output_offset, range.min, range.max,
                                     tables.multiplier, tables.left_shift, tables.right_shift, 0, SIZE_MAX};
    // Threads take ranges of output rows, at least kMinPieceOutputs outputs each.
    for_each_piece(io.parallel(), args.out_h, 1, min_rows_per_piece(args.out_w * args.channels),
                   [&](std::size_t begin, std::size_t end, std::size_t) {
                     simd::DepthwiseQ8Args piece = args;
                     piece.row_begin = begin, piece.row_end = end;
                     if constexpr (T == OperandType::TENSOR_QUANT8_ASYMM_SIGNED)
                       params.simd_q8->s8(piece);
                     else if constexpr (FT == OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL)
                       params.simd_q8->u8_s8(piece);
                     else
                       params.simd_q8->u8(piece);
                   });
    return {};
  }
  reference_quant(in, filter, bias, out, *cv, p, tables.aos, range);
  return {};
}

/// DEPTHWISE_CONV_2D's kernels, keyed by the input type (the filter type is chosen at prepare).
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                                    OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_ASYMM_SIGNED};
  static Status infer(const NodeIO& io) { return depthwise_conv_2d::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO& io, KernelPrepare& prepare) {
    Params p;
    if constexpr (T == OperandType::TENSOR_FLOAT32) {
      if (prepare.reference) return &kernel_reference_float<T>;
      p.simd = &simd::depthwise_f32_table();
      prepare.store(p);
      return &kernel_f32;
    } else if constexpr (T == OperandType::TENSOR_FLOAT16) {
      prepare.store(p);
      return &kernel_reference_float<T>;
    } else {
      if (!prepare.reference) p.simd_q8 = &simd::depthwise_q8_table();  // else: reference_quant
      if (auto s = prepare_quant(io, prepare, p.q, kName, 3); !s) return std::move(s.error());
      prepare.store(p);
      if (io.input(1).type == OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL)
        return &kernel_quant<T, OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL>;
      if (io.input(1).type != T) return NNHAL_FAILURE("%s filter type differs from the input type", kName);
      return &kernel_quant<T, T>;
    }
  }
};

}  // namespace nnhal::kernels::depthwise_conv_2d

namespace nnhal {

template <>
struct Kernels<OperationType::DEPTHWISE_CONV_2D> : kernels::depthwise_conv_2d::Family {};
static_assert(kernels_cover_row<OperationType::DEPTHWISE_CONV_2D>());

}  // namespace nnhal
