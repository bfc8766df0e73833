#pragma once
/// \file
/// The one convolution implementation behind CONV_2D and GROUPED_CONV_2D (a CONV_2D is a grouped
/// convolution with one group): the node's geometry and checks, shape inference, the plain
/// kernels for every element type (any layout, groups, dilation) and the requantization
/// parameters. The kernels and the prepare-time choice among them (with the packed FLOAT32
/// SIMD path) are in nnhal/kernels/common/conv_family.hpp.
///
/// Filter [out_c, filter_h, filter_w, group_in] (group_in = in_c / groups); output channel oc
/// belongs to group oc / (out_c / groups) and reads input channels [g * group_in, (g+1) *
/// group_in).

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "nnhal/core/half.hpp"
#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/activation.hpp"
#include "nnhal/kernels/common/filter_requant.hpp"
#include "nnhal/kernels/common/quantization.hpp"
#include "nnhal/kernels/common/window.hpp"
#include "nnhal/kernels/kernel.hpp"

namespace nnhal::kernels::conv {

/// Which operation a node is: they differ only in their scalars (GROUPED_CONV_2D has
/// num_groups, a mandatory layout flag and no dilation).
enum class Kind { Conv, Grouped };

constexpr const char* op_name(Kind k) noexcept { return k == Kind::Conv ? "CONV_2D" : "GROUPED_CONV_2D"; }

/// Everything a run needs to know about the node's shapes and scalars.
struct Spec {
  window::Image in, out;
  window::Geometry g;
  std::uint32_t out_c = 0, groups = 1, group_in = 0, group_out = 0;
  std::int32_t activation = 0;
  bool nchw = false;
};

/// Reads the scalars and shapes of a node and applies the reference's runtime checks
/// (Conv2D.cpp prepare, groupedConvPrepare): ranks 4/4/1, depth_in == filter depth * groups,
/// depth_out % groups == 0, bias length == depth_out, height, width and depths > 0 (only the
/// batch may be 0), effective filter > every padding, per-channel scales one per depth_out.
inline Expected<Spec> make_spec(const NodeIO& io, Kind kind) {
  const char* nm = op_name(kind);
  const RtOperand &x = io.input(0), &f = io.input(1), &b = io.input(2);
  if (x.dims.rank() != 4) return NNHAL_FAILURE("%s input has rank %zu, expected 4", nm, x.dims.rank());
  if (f.dims.rank() != 4) return NNHAL_FAILURE("%s filter has rank %zu, expected 4", nm, f.dims.rank());
  if (b.dims.rank() != 1) return NNHAL_FAILURE("%s bias has rank %zu, expected 1", nm, b.dims.rank());
  auto sc = window::read_scalars(io, 3, kind == Kind::Grouped ? 1 : 0, nm);
  if (!sc) return std::move(sc.error());
  Spec s;
  s.nchw = sc->nchw;
  s.activation = sc->activation;
  s.in = window::Image::of(x.dims, s.nchw);
  const std::int32_t groups = kind == Kind::Grouped ? sc->extra[0] : 1;
  if (groups < 1)
    return NNHAL_FAILURE("%s has a non-positive number of groups %" PRId32, nm, groups);
  s.groups = static_cast<std::uint32_t>(groups);
  s.out_c = f.dims[0];
  const std::uint32_t fh = f.dims[1], fw = f.dims[2];
  s.group_in = f.dims[3];
  if (s.out_c == 0 || fh == 0 || fw == 0 || s.group_in == 0)
    return NNHAL_FAILURE("%s filter [%" PRIu32 ", %" PRIu32 ", %" PRIu32 ", %" PRIu32
                         "] must not be empty",
                         nm, s.out_c, fh, fw, s.group_in);
  if (fh > INT32_MAX || fw > INT32_MAX) return NNHAL_FAILURE("%s filter is too large", nm);
  if (s.in.h == 0 || s.in.w == 0 || s.in.c == 0)
    return NNHAL_FAILURE("%s input [%" PRIu32 ", %" PRIu32 ", %" PRIu32 ", %" PRIu32
                         "] is empty beyond the batch",
                         nm, x.dims[0], x.dims[1], x.dims[2], x.dims[3]);
  if (std::uint64_t{s.group_in} * s.groups != s.in.c)
    return NNHAL_FAILURE("%s input depth %" PRIu32 " differs from filter depth %" PRIu32
                         " x %" PRIu32 " groups",
                         nm, s.in.c, s.group_in, s.groups);
  if (s.out_c % s.groups != 0)
    return NNHAL_FAILURE("%s output depth %" PRIu32 " is not a multiple of the %" PRIu32 " groups",
                         nm, s.out_c, s.groups);
  s.group_out = s.out_c / s.groups;
  if (b.dims[0] != s.out_c)
    return NNHAL_FAILURE("%s bias length %" PRIu32 " differs from output depth %" PRIu32, nm,
                         b.dims[0], s.out_c);
  if (f.type == OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL) {
    if (f.channel_quant == nullptr || f.channel_quant->channelDim != 0 || f.channel_quant->scales.size() != s.out_c)
      return NNHAL_FAILURE("%s per-channel filter needs %" PRIu32 " scales along dimension 0", nm,
                           s.out_c);
  }
  auto g = window::resolve(*sc, s.in.h, s.in.w, static_cast<std::int32_t>(fh), static_cast<std::int32_t>(fw), nm);
  if (!g) return std::move(g.error());
  s.g = *g;
  const std::int64_t eff_w = window::effective_filter(fw, s.g.dilation_w);
  const std::int64_t eff_h = window::effective_filter(fh, s.g.dilation_h);
  if (!(eff_w > s.g.pad_w.head && eff_w > s.g.pad_w.tail && eff_h > s.g.pad_h.head && eff_h > s.g.pad_h.tail))
    return NNHAL_FAILURE("%s padding (%" PRId32 ", %" PRId32 ", %" PRId32 ", %" PRId32
                         ") is not smaller than the effective filter %lld x %lld",
                         nm, s.g.pad_w.head, s.g.pad_w.tail, s.g.pad_h.head, s.g.pad_h.tail,
                         static_cast<long long>(eff_h), static_cast<long long>(eff_w));
  s.out = window::Image::of(window::Image::dims(s.nchw, s.in.n, s.g.out_h, s.g.out_w, s.out_c), s.nchw);
  std::uint64_t n = 0;
  if (__builtin_mul_overflow(std::uint64_t{s.in.n} * s.g.out_h, std::uint64_t{s.g.out_w} * s.out_c, &n) ||
      n > (std::uint64_t{1} << 48))
    return NNHAL_FAILURE("%s output is too large", nm);
  return s;
}

/// Output shape [batches, out_h, out_w, depth_out] (or NCHW).
inline Status infer(const NodeIO& io, Kind kind) {
  auto s = make_spec(io, kind);
  if (!s) return std::move(s.error());
  RtOperand& out = io.output(0);
  out.dims = window::Image::dims(s->nchw, s->in.n, s->g.out_h, s->g.out_w, s->out_c);
  out.rank_known = true;
  return {};
}

/// The spec of a run, checked against the output shape the executor allocated.
inline Expected<Spec> run_spec(const NodeIO& io, Kind kind) {
  auto s = make_spec(io, kind);
  if (!s) return s;
  const Dims want = window::Image::dims(s->nchw, s->in.n, s->g.out_h, s->g.out_w, s->out_c);
  if (!(io.output(0).dims == want)) return NNHAL_FAILURE("%s output shape differs from the inferred one", op_name(kind));
  return s;
}

/// Calls f(oy, ox, iy0, ix0) for every output position of image b, where (iy0, ix0) is the
/// input position of the filter's top-left tap (may be negative: padding).
template <class F>
inline void for_each_output(const Spec& s, F&& f) {
  for (std::uint32_t oy = 0; oy < s.g.out_h; ++oy) {
    const std::int64_t iy0 = std::int64_t{oy} * s.g.stride_h - s.g.pad_h.head;
    for (std::uint32_t ox = 0; ox < s.g.out_w; ++ox)
      f(oy, ox, iy0, std::int64_t{ox} * s.g.stride_w - s.g.pad_w.head);
  }
}

/// Plain float convolution (FLOAT32, and FLOAT16 converted to float), any layout and groups:
/// per output, the sum of products over filter rows, columns and depth in that order (the
/// reference grouped convolution's order), then + bias, then the activation clamp. Padded taps
/// contribute nothing.
template <class T>
void plain_float(const Spec& s, const T* x, const T* w, const T* bias, T* y, FloatRange r) noexcept {
  const std::size_t fh = static_cast<std::size_t>(s.g.filter_h), fw = static_cast<std::size_t>(s.g.filter_w);
  const std::size_t gi = s.group_in, per_oc = fh * fw * gi, sc = s.in.sc;
  for (std::uint32_t b = 0; b < s.in.n; ++b) {
    for_each_output(s, [&](std::uint32_t oy, std::uint32_t ox, std::int64_t iy0, std::int64_t ix0) {
      for (std::uint32_t oc = 0; oc < s.out_c; ++oc) {
        const std::size_t c0 = std::size_t{oc / s.group_out} * gi;
        const T* wo = w + oc * per_oc;
        float acc = 0.0f;
        for (std::size_t fy = 0; fy < fh; ++fy) {
          const std::int64_t iy = iy0 + static_cast<std::int64_t>(fy) * s.g.dilation_h;
          if (iy < 0 || iy >= s.in.h) continue;
          for (std::size_t fx = 0; fx < fw; ++fx) {
            const std::int64_t ix = ix0 + static_cast<std::int64_t>(fx) * s.g.dilation_w;
            if (ix < 0 || ix >= s.in.w) continue;
            const T* xp = x + s.in.at(b, static_cast<std::size_t>(iy), static_cast<std::size_t>(ix), c0);
            const T* wp = wo + (fy * fw + fx) * gi;
            for (std::size_t k = 0; k < gi; ++k) acc += static_cast<float>(xp[k * sc]) * static_cast<float>(wp[k]);
          }
        }
        acc += static_cast<float>(bias[oc]);
        y[s.out.at(b, oy, ox, oc)] = T(r.apply(acc));
      }
    });
  }
}

/// Requantization of a quantized node: offsets and either one multiplier (same-type filter) or
/// one per output channel (per-channel filter; `per_channel` is then true and the multipliers
/// are the node's packed data).
struct QuantParams {
  std::int32_t input_offset = 0, filter_offset = 0, output_offset = 0;
  quant::Multiplier output;
  bool per_channel = false;
};

/// Where the packed SIMD path of a node stands (FLOAT32 and 8-bit kernels).
enum class PackMode : std::uint8_t {
  Plain,       ///< never (shapes unknown at prepare, or GROUPED_CONV_2D, or no SIMD kernel)
  Packed,      ///< weights packed at prepare (NodeIO::packed())
  PackPerRun,  ///< weights packed into the workspace on every run
};

/// Builds QuantParams; for a per-channel filter also computes one quant::Multiplier per output
/// channel into `channel` (the filter's scales are operand metadata, so this works for runtime
/// filters too; the caller packs them).
inline Expected<QuantParams> make_quant_params(const NodeIO& io, Kind kind, std::vector<quant::Multiplier>& channel) {
  const RtOperand &in = io.input(0), &f = io.input(1), &out = io.output(0);
  QuantParams p;
  p.input_offset = -in.zero_point;
  p.output_offset = out.zero_point;
  if (f.type != OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL) {
    p.filter_offset = -f.zero_point;
    // The reference's multiplier and bias-scale check (filter_requant::conv_multiplier).
    auto m = filter_requant::conv_multiplier(in.scale, f.scale, io.input(2).scale, out.scale, op_name(kind));
    if (!m) return std::move(m.error());
    p.output = *m;
    return p;
  }
  if (f.channel_quant == nullptr || f.channel_quant->scales.empty())
    return NNHAL_FAILURE("%s per-channel filter has no scales", op_name(kind));
  p.per_channel = true;
  channel.clear();
  for (float scale : f.channel_quant->scales) {
    // Per channel the reference builds the bias scale from the same two floats, so the bias
    // check compares the product with itself and cannot fail.
    auto m = filter_requant::conv_multiplier(in.scale, scale, in.scale * scale, out.scale, op_name(kind));
    if (!m) return std::move(m.error());
    channel.push_back(*m);
  }
  return p;
}

/// Plain integer convolution: acc = bias + sum (x + input_offset) * (w + filter_offset) in
/// int32 (wrapping instead of undefined overflow), rescaled by the channel's multiplier, plus
/// the output offset, clamped to the activation range. X is the input/output element, W the
/// filter element (uint8, int8, or int8 per-channel with filter_offset 0).
template <class X, class W>
void plain_quant(const Spec& s, const X* x, const W* w, const std::int32_t* bias, X* y, const QuantParams& p,
                 const quant::Multiplier* multipliers, quant::QuantRange range) noexcept {
  const std::size_t fh = static_cast<std::size_t>(s.g.filter_h), fw = static_cast<std::size_t>(s.g.filter_w);
  const std::size_t gi = s.group_in, per_oc = fh * fw * gi, sc = s.in.sc;
  for (std::uint32_t b = 0; b < s.in.n; ++b) {
    for_each_output(s, [&](std::uint32_t oy, std::uint32_t ox, std::int64_t iy0, std::int64_t ix0) {
      for (std::uint32_t oc = 0; oc < s.out_c; ++oc) {
        const std::size_t c0 = std::size_t{oc / s.group_out} * gi;
        const W* wo = w + oc * per_oc;
        std::uint32_t acc = static_cast<std::uint32_t>(bias[oc]);
        for (std::size_t fy = 0; fy < fh; ++fy) {
          const std::int64_t iy = iy0 + static_cast<std::int64_t>(fy) * s.g.dilation_h;
          if (iy < 0 || iy >= s.in.h) continue;
          for (std::size_t fx = 0; fx < fw; ++fx) {
            const std::int64_t ix = ix0 + static_cast<std::int64_t>(fx) * s.g.dilation_w;
            if (ix < 0 || ix >= s.in.w) continue;
            const X* xp = x + s.in.at(b, static_cast<std::size_t>(iy), static_cast<std::size_t>(ix), c0);
            const W* wp = wo + (fy * fw + fx) * gi;
            for (std::size_t k = 0; k < gi; ++k)
              acc += static_cast<std::uint32_t>((std::int32_t{xp[k * sc]} + p.input_offset) *
                                                (std::int32_t{wp[k]} + p.filter_offset));
          }
        }
        const quant::Multiplier m = p.per_channel ? multipliers[oc] : p.output;
        std::int32_t r = quant::multiply_by_quantized_multiplier(static_cast<std::int32_t>(acc), m.value, m.shift);
        r += p.output_offset;
        r = r < range.min ? range.min : (r > range.max ? range.max : r);
        y[s.out.at(b, oy, ox, oc)] = static_cast<X>(r);
      }
    });
  }
}

}  // namespace nnhal::kernels::conv
