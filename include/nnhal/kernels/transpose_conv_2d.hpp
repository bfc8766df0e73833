#pragma once
/// \file
/// TRANSPOSE_CONV_2D kernels (the row: nnhal/ops/transpose_conv_2d.hpp): shape inference and one
/// kernel per type, any layout.
///
/// The reference (TransposeConv2D.cpp) scatters: for each input pixel (h, w) in order, each
/// output channel k and filter tap (i, j), it adds in[h, w, d] * filter[k, i, j, d] for d in
/// order to out[h * stride_h - pad_top + i, w * stride_w - pad_left + j, k] (taps falling outside
/// the output are dropped), then adds the bias and clamps. These kernels gather instead: each
/// output element runs over the input pixels that reach it, in the same (h, w, d) order, so the
/// float sums are formed in exactly the reference's order, no scratch buffer is needed and each
/// output is written once; for NHWC both the input pixel and the filter row are contiguous along
/// d. FLOAT16 is computed in float and rounded once. The 8-bit kernels accumulate
/// (x - x_zp) * (w - w_zp) in int32 (w_zp = 0 for a per-channel filter), add the bias and rescale
/// with TFLite's MultiplyByQuantizedMultiplier, per tensor or per output channel.
///
/// Reference quirks followed here:
///  - the implicit form takes the output size from the output-shape tensor (input 3) only to
///    derive the padding (window::implicit_padding(..., transpose = true), whose tail may be
///    negative); the output shape is then in * stride + filter - stride - head - tail, which may
///    differ from the tensor's values, and the tensor's batch and depth entries are not used;
///  - only pad_left and pad_top must be >= 0 (a negative right / bottom padding enlarges the
///    output; the extra elements receive the bias only).

#include <array>
#include <cstddef>
#include <cstdint>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/activation.hpp"
#include "nnhal/kernels/common/filter_requant.hpp"
#include "nnhal/kernels/common/quantization.hpp"
#include "nnhal/kernels/common/window.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/transpose_conv_2d.hpp"

namespace nnhal::kernels::transpose_conv_2d {

using filter_requant::QuantParams;

inline constexpr const char* kName = "TRANSPOSE_CONV_2D";

/// The resolved problem.
struct Conv {
  window::Image in, out;
  std::uint32_t filter_h = 0, filter_w = 0;
  std::int32_t stride_h = 1, stride_w = 1;
  window::Pad pad_h, pad_w;
  std::int32_t activation = 0;
};

/// Reads the scalars and checks the shapes as the reference's prepare does.
inline Expected<Conv> resolve(const NodeIO& io) {
  const Dims &in = io.input(0).dims, &f = io.input(1).dims, &bias = io.input(2).dims;
  if (in.rank() != 4) return NNHAL_FAILURE("%s input has rank %zu, expected 4", kName, in.rank());
  if (f.rank() != 4) return NNHAL_FAILURE("%s filter has rank %zu, expected 4", kName, f.rank());
  if (bias.rank() != 1) return NNHAL_FAILURE("%s bias has rank %zu, expected 1", kName, bias.rank());
  const auto i32 = [&](std::size_t k) { return io.scalar<OperandType::INT32>(k); };
  Conv cv;
  const bool explicit_form = io.input_count() == 11;
  if (!explicit_form && io.input_count() != 9)
    return NNHAL_FAILURE("%s has %zu inputs, expected 9 or 11", kName, io.input_count());
  const bool nchw = io.scalar<OperandType::BOOL>(explicit_form ? 10 : 8) != 0;
  cv.in = window::Image::of(in, nchw);
  const std::uint32_t depth_out = f[0];
  cv.filter_h = f[1], cv.filter_w = f[2];
  if (f[3] != cv.in.c)
    return NNHAL_FAILURE("%s filter depth %" PRIu32 " differs from the input depth %" PRIu32, kName,
                         f[3], cv.in.c);
  if (bias[0] != depth_out)
    return NNHAL_FAILURE("%s bias length %" PRIu32
                         " differs from the filter's output depth %" PRIu32,
                         kName, bias[0], depth_out);
  if (cv.in.h == 0 || cv.in.w == 0 || cv.in.c == 0 || depth_out == 0 || cv.filter_h == 0 || cv.filter_w == 0)
    return NNHAL_FAILURE("%s: only the batch may be empty", kName);
  if (cv.filter_h > INT32_MAX || cv.filter_w > INT32_MAX) return NNHAL_FAILURE("%s filter is too large", kName);
  if (explicit_form) {
    cv.pad_w = {i32(3), i32(4)};
    cv.pad_h = {i32(5), i32(6)};
    cv.stride_w = i32(7), cv.stride_h = i32(8);
    cv.activation = i32(9);
  } else {
    const RtOperand& shape = io.input(3);
    if (shape.dims.rank() != 1 || shape.dims[0] != 4)
      return NNHAL_FAILURE("%s output shape (input 3) must be a 1-D tensor of 4 values", kName);
    if (shape.data == nullptr) return NNHAL_FAILURE("%s output shape (input 3) has no value", kName);
    const std::int32_t* s = io.in_data<OperandType::TENSOR_INT32>(3);
    const std::int32_t scheme = i32(4);
    cv.stride_w = i32(5), cv.stride_h = i32(6);
    cv.activation = i32(7);
    if (scheme < 0 || scheme > window::kPaddingValid)
      return NNHAL_FAILURE("%s has an invalid padding scheme %" PRId32, kName, scheme);
    const std::int32_t out_h = nchw ? s[2] : s[1], out_w = nchw ? s[3] : s[2];
    cv.pad_w = window::implicit_padding(out_w, cv.stride_w, 1, cv.filter_w, scheme, true);
    cv.pad_h = window::implicit_padding(out_h, cv.stride_h, 1, cv.filter_h, scheme, true);
  }
  if (cv.stride_w < 1 || cv.stride_h < 1)
    return NNHAL_FAILURE("%s has a non-positive stride (%" PRId32 ", %" PRId32 ")", kName,
                         cv.stride_w, cv.stride_h);
  if (cv.pad_w.head < 0 || cv.pad_h.head < 0)
    return NNHAL_FAILURE("%s has a negative left or top padding (%" PRId32 ", %" PRId32 ")", kName,
                         cv.pad_w.head, cv.pad_h.head);
  if (!is_valid_activation(cv.activation))
    return NNHAL_FAILURE("%s has an invalid fused activation %" PRId32, kName, cv.activation);
  const std::int64_t oh = window::transpose_output_size(cv.in.h, cv.filter_h, cv.stride_h, cv.pad_h);
  const std::int64_t ow = window::transpose_output_size(cv.in.w, cv.filter_w, cv.stride_w, cv.pad_w);
  if (oh <= 0 || ow <= 0)
    return NNHAL_FAILURE("%s output size %lld x %lld is not positive", kName, static_cast<long long>(oh),
                         static_cast<long long>(ow));
  if (oh > INT32_MAX || ow > INT32_MAX) return NNHAL_FAILURE("%s output is too large", kName);
  cv.out = window::Image::of(window::Image::dims(nchw, cv.in.n, static_cast<std::uint32_t>(oh),
                                                 static_cast<std::uint32_t>(ow), depth_out), nchw);
  return cv;
}

/// Output shape [batch, out_h, out_w, depth_out] (NCHW: [batch, depth_out, out_h, out_w]).
inline Status infer(const NodeIO& io) {
  auto cv = resolve(io);
  if (!cv) return std::move(cv.error());
  RtOperand& out = io.output(0);
  out.dims = window::Image::dims(cv->in.nchw, cv->out.n, cv->out.h, cv->out.w, cv->out.c);
  out.rank_known = true;
  return {};
}

/// floor(a / b) for b > 0.
constexpr std::int64_t floor_div(std::int64_t a, std::int64_t b) noexcept {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/// Input positions p in [lo, hi] of one axis that reach output position o: 0 <= p < size and
/// 0 <= o + pad - p * stride < filter.
struct Reach {
  std::int64_t lo, hi;  ///< inclusive; empty when lo > hi
};
constexpr Reach reach(std::int64_t o, std::int64_t pad, std::int64_t stride, std::int64_t filter, std::int64_t size) noexcept {
  const std::int64_t t = o + pad;
  std::int64_t lo = floor_div(t - filter, stride) + 1, hi = floor_div(t, stride);
  if (lo < 0) lo = 0;
  if (hi > size - 1) hi = size - 1;
  return {lo, hi};
}

/// The shared gather loop: for every output
/// element, acc = fold over the (h, w, d) that reach it of step(acc, x, w) in reference order,
/// then out = finish(acc, k).
template <class X, class W, class Acc, class Step, class Finish>
void gather(const X* in, const W* filter, const Conv& cv, Acc zero, Step step, Finish finish) noexcept {
  constexpr std::size_t kBlock = 4;
  const std::size_t D = cv.in.c, K = cv.out.c, FH = cv.filter_h, FW = cv.filter_w;
  for (std::size_t b = 0; b < cv.out.n; ++b)
    for (std::size_t oy = 0; oy < cv.out.h; ++oy) {
      const Reach ry = reach(static_cast<std::int64_t>(oy), cv.pad_h.head, cv.stride_h, FH, cv.in.h);
      for (std::size_t ox = 0; ox < cv.out.w; ++ox) {
        const Reach rx = reach(static_cast<std::int64_t>(ox), cv.pad_w.head, cv.stride_w, FW, cv.in.w);
        // Output channels in blocks of kBlock: one input value feeds kBlock independent sums
        // (each still formed in the reference's order), instead of one long dependency chain.
        for (std::size_t k0 = 0; k0 < K; k0 += kBlock) {
          const std::size_t kn = K - k0 < kBlock ? K - k0 : kBlock;
          Acc acc[kBlock];
          for (std::size_t kk = 0; kk < kBlock; ++kk) acc[kk] = zero;
          for (std::int64_t h = ry.lo; h <= ry.hi; ++h) {
            const auto i = static_cast<std::size_t>(static_cast<std::int64_t>(oy) + cv.pad_h.head - h * cv.stride_h);
            for (std::int64_t w = rx.lo; w <= rx.hi; ++w) {
              const auto j = static_cast<std::size_t>(static_cast<std::int64_t>(ox) + cv.pad_w.head - w * cv.stride_w);
              const X* xp = in + cv.in.at(b, static_cast<std::size_t>(h), static_cast<std::size_t>(w), 0);
              const W* fp = filter + ((k0 * FH + i) * FW + j) * D;
              const std::size_t fstride = FH * FW * D;  // next output channel's filter
              if (kn == kBlock) {
                for (std::size_t d = 0; d < D; ++d) {
                  const X x = xp[d * cv.in.sc];
                  for (std::size_t kk = 0; kk < kBlock; ++kk) acc[kk] = step(acc[kk], x, fp[kk * fstride + d]);
                }
              } else {
                for (std::size_t d = 0; d < D; ++d) {
                  const X x = xp[d * cv.in.sc];
                  for (std::size_t kk = 0; kk < kn; ++kk) acc[kk] = step(acc[kk], x, fp[kk * fstride + d]);
                }
              }
            }
          }
          for (std::size_t kk = 0; kk < kn; ++kk) finish(acc[kk], k0 + kk, cv.out.at(b, oy, ox, k0 + kk));
        }
      }
    }
}

/// Float / half kernel (float accumulation, rounded once).
template <class E>
void run_float(const E* in, const E* filter, const E* bias, E* out, const Conv& cv) noexcept {
  using filter_requant::from_float;
  using filter_requant::to_float;
  const FloatRange r = float_activation_range(cv.activation);
  gather(in, filter, cv, 0.0f,
         [](float acc, E x, E w) { return acc + to_float(x) * to_float(w); },
         [&](float acc, std::size_t k, std::size_t at) { out[at] = from_float<E>(r.apply(acc + to_float(bias[k]))); });
}

/// 8-bit kernel; the int32 sums wrap instead of overflowing into undefined behaviour.
template <class E, class F>
void run_quant(const E* in, const F* filter, const std::int32_t* bias, E* out, const Conv& cv, const QuantParams& p,
               const quant::Multiplier* table, quant::QuantRange range) noexcept {
  const std::int32_t xo = p.input_offset, wo = p.filter_offset;
  gather(in, filter, cv, std::uint32_t{0},
         [xo, wo](std::uint32_t acc, E x, F w) { return acc + static_cast<std::uint32_t>((x + xo) * (w + wo)); },
         [&](std::uint32_t acc, std::size_t k, std::size_t at) {
           out[at] = filter_requant::requantize_acc<E>(acc + static_cast<std::uint32_t>(bias[k]),
                                                       filter_requant::multiplier_of(p, table, k), p.output_offset, range);
         });
}

template <OperandType T>
Status kernel_float(const NodeIO& io) {
  auto cv = resolve(io);
  if (!cv) return std::move(cv.error());
  if (io.output(0).dims.element_count() == 0) return {};  // zero-sized batch
  run_float(io.in_data<T>(0), io.in_data<T>(1), io.in_data<T>(2), io.out_data<T>(0), *cv);
  return {};
}

template <OperandType T, OperandType FT>
Status kernel_quant(const NodeIO& io) {
  using E = element_t<T>;
  auto cv = resolve(io);
  if (!cv) return std::move(cv.error());
  const QuantParams& p = io.params<QuantParams>();
  if (p.per_channel && p.channels != cv->out.c)
    return NNHAL_FAILURE("%s filter has %" PRIu32 " channel scales for %" PRIu32 " output channels",
                         kName, p.channels, cv->out.c);
  if (io.output(0).dims.element_count() == 0) return {};
  const RtOperand& o = io.output(0);
  const auto storage = quant::storage_range<E>();
  const auto range = quant::activation_range(static_cast<FusedActivationFunc>(cv->activation), o.scale, o.zero_point,
                                             storage.min, storage.max);
  run_quant(io.in_data<T>(0), io.in_data<FT>(1), io.in_data<OperandType::TENSOR_INT32>(2), io.out_data<T>(0), *cv, p,
            reinterpret_cast<const quant::Multiplier*>(io.packed()), range);
  return {};
}

/// TRANSPOSE_CONV_2D's kernels, keyed by the input type (the filter type is chosen at prepare).
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                                    OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_ASYMM_SIGNED};
  static Status infer(const NodeIO& io) { return transpose_conv_2d::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO& io, KernelPrepare& prepare) {
    if constexpr (T == OperandType::TENSOR_FLOAT32 || T == OperandType::TENSOR_FLOAT16) {
      return &kernel_float<T>;
    } else {
      QuantParams p;
      if (auto s = filter_requant::prepare_quant(io, prepare, p, kName, 0); !s) return std::move(s.error());
      prepare.store(p);
      if (io.input(1).type == OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL)
        return &kernel_quant<T, OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL>;
      if (io.input(1).type != T) return NNHAL_FAILURE("%s filter type differs from the input type", kName);
      return &kernel_quant<T, T>;
    }
  }
};

}  // namespace nnhal::kernels::transpose_conv_2d

namespace nnhal {

template <>
struct Kernels<OperationType::TRANSPOSE_CONV_2D> : kernels::transpose_conv_2d::Family {};
static_assert(kernels_cover_row<OperationType::TRANSPOSE_CONV_2D>());

}  // namespace nnhal
