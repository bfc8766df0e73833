#pragma once
/// \file
/// The kernels of CONV_2D and GROUPED_CONV_2D (one family template for both, Family<Kind>) and
/// the prepare-time choice: FLOAT32 single-group convolutions get their weights packed into
/// the SIMD kernel's panels once at prepare when filter and bias are constants, or into the
/// workspace on every run when they are runtime inputs of a shape known at prepare; at run the
/// packed kernel is taken for NHWC data, the plain kernel otherwise (NCHW, groups, shapes
/// unknown at prepare). The 8-bit types do the same with int16-widened weights (the 8-bit SIMD
/// kernel also widens the input into the workspace, so it needs the input shape at prepare).
/// FLOAT16 is computed in float by the plain kernel.

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/conv.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/simd/conv_f32.hpp"
#include "nnhal/simd/conv_q8.hpp"

namespace nnhal::kernels::conv {

/// FLOAT32 node parameters: the SIMD table and the filter shape the packing was planned for.
struct F32Params {
  const simd::ConvF32* simd = nullptr;
  PackMode mode = PackMode::Plain;
  std::uint32_t out_c = 0, filter_h = 0, filter_w = 0, in_c = 0;
  std::size_t panel = 0, packed_floats = 0;
};

/// Largest packed weight block planned (floats): 1 GiB.
inline constexpr std::size_t kMaxPackedFloats = std::size_t{1} << 28;

inline bool is_constant(const RtOperand& op) noexcept {
  return op.lifetime == OperandLifeTime::CONSTANT_COPY || op.lifetime == OperandLifeTime::CONSTANT_REFERENCE;
}

/// Plans the FLOAT32 packed path of a node (see the file comment).
inline F32Params plan_f32(const NodeIO& io, KernelPrepare& prepare, Kind kind) {
  F32Params p;
  p.simd = &simd::conv_f32_table();
  const RtOperand &f = io.input(1), &bias = io.input(2);
  if (kind != Kind::Conv || !f.rank_known || f.dims.rank() != 4 || !f.dims.all_known() || bias.dims.rank() != 1 ||
      bias.dims[0] != f.dims[0])
    return p;
  p.out_c = f.dims[0], p.filter_h = f.dims[1], p.filter_w = f.dims[2], p.in_c = f.dims[3];
  std::size_t k = 0;
  if (__builtin_mul_overflow(std::size_t{p.filter_h} * p.filter_w, std::size_t{p.in_c}, &k)) return p;
  p.panel = p.simd->panel_width(p.out_c);
  p.packed_floats = simd::conv_f32_packed_floats(p.out_c, k, p.panel, p.in_c);
  if (p.packed_floats == 0 || p.packed_floats > kMaxPackedFloats) return p;
  const std::uint64_t filter_bytes = f.required_bytes(), bias_bytes = bias.required_bytes();
  if (is_constant(f) && is_constant(bias) && f.data != nullptr && bias.data != nullptr && f.length >= filter_bytes &&
      bias.length >= bias_bytes) {
    p.mode = PackMode::Packed;
    if (std::byte* dst = prepare.pack(p.packed_floats * sizeof(float)); dst != nullptr)
      simd::conv_f32_pack(reinterpret_cast<const float*>(f.data), reinterpret_cast<const float*>(bias.data), p.out_c,
                          k, p.panel, p.in_c, reinterpret_cast<float*>(dst));
  } else {
    p.mode = PackMode::PackPerRun;
    prepare.workspace_bytes = p.packed_floats * sizeof(float);
  }
  return p;
}

/// FLOAT32: the packed SIMD kernel when planned and the data is NHWC with one group, else the
/// plain kernel.
template <Kind K>
Status kernel_f32(const NodeIO& io) {
  auto s = run_spec(io, K);
  if (!s) return std::move(s.error());
  if (io.output(0).dims.element_count() == 0) return {};  // zero-sized batch
  const FloatRange r = float_activation_range(s->activation);
  const float* x = io.in_data<OperandType::TENSOR_FLOAT32>(0);
  const float* w = io.in_data<OperandType::TENSOR_FLOAT32>(1);
  const float* bias = io.in_data<OperandType::TENSOR_FLOAT32>(2);
  float* y = io.out_data<OperandType::TENSOR_FLOAT32>(0);
  const auto& p = io.params<F32Params>();
  const bool planned = p.mode != PackMode::Plain && !s->nchw && s->groups == 1 && p.out_c == s->out_c &&
                       p.filter_h == static_cast<std::uint32_t>(s->g.filter_h) &&
                       p.filter_w == static_cast<std::uint32_t>(s->g.filter_w) && p.in_c == s->in.c;
  const float* packed = nullptr;
  if (planned && p.mode == PackMode::Packed) {
    packed = reinterpret_cast<const float*>(io.packed());  // nullptr (nothing packed): plain kernel
  } else if (planned && p.mode == PackMode::PackPerRun && io.workspace() != nullptr) {
    float* ws = reinterpret_cast<float*>(io.workspace());
    simd::conv_f32_pack(w, bias, p.out_c, std::size_t{p.filter_h} * p.filter_w * p.in_c, p.panel, p.in_c, ws);
    packed = ws;
  }
  if (packed == nullptr) {
    plain_float(*s, x, w, bias, y, r);
    return {};
  }
  simd::ConvF32Args a;
  a.in = x, a.out = y, a.packed = packed;
  a.batch = s->in.n, a.in_h = s->in.h, a.in_w = s->in.w, a.in_c = s->in.c;
  a.out_h = s->g.out_h, a.out_w = s->g.out_w, a.out_c = s->out_c;
  a.filter_h = static_cast<std::size_t>(s->g.filter_h), a.filter_w = static_cast<std::size_t>(s->g.filter_w);
  a.stride_h = s->g.stride_h, a.stride_w = s->g.stride_w, a.dilation_h = s->g.dilation_h, a.dilation_w = s->g.dilation_w;
  a.pad_top = s->g.pad_h.head, a.pad_left = s->g.pad_w.head;
  a.panel = p.panel, a.act_min = r.min, a.act_max = r.max;
  // Threads take ranges of pixels (at least 4 register tiles each) or, for small images, of
  // output channel panels.
  const std::size_t pixels = a.out_h * a.out_w, panels = (a.out_c + a.panel - 1) / a.panel;
  constexpr std::size_t kMinPixels = 4 * simd::kConvF32PixelGrain;
  Parallel* parallel = io.parallel();
  if (parallel == nullptr || pixels >= kMinPixels * parallel->concurrency() || panels < 2) {
    for_each_piece(parallel, pixels, simd::kConvF32PixelGrain, kMinPixels,
                   [&](std::size_t begin, std::size_t end, std::size_t) {
                     simd::ConvF32Args piece = a;
                     piece.pixel_begin = begin, piece.pixel_end = end;
                     p.simd->run(piece);
                   });
  } else {
    for_each_piece(parallel, panels, 1, 1, [&](std::size_t begin, std::size_t end, std::size_t) {
      simd::ConvF32Args piece = a;
      piece.panel_begin = begin, piece.panel_end = end;
      p.simd->run(piece);
    });
  }
  return {};
}

/// The plain kernel in float: FLOAT16 (one rounding to half per output), and FLOAT32 when
/// prepare asks for reference kernels (KernelPrepare::reference).
template <Kind K, OperandType T>
Status kernel_plain_float(const NodeIO& io) {
  auto s = run_spec(io, K);
  if (!s) return std::move(s.error());
  if (io.output(0).dims.element_count() == 0) return {};
  plain_float(*s, io.in_data<T>(0), io.in_data<T>(1), io.in_data<T>(2), io.out_data<T>(0),
              float_activation_range(s->activation));
  return {};
}

/// 8-bit node parameters: requantization and the plan of the SIMD path. Packed data: the
/// per-channel multipliers (if any) from offset 0, the packed weights (if packed at prepare)
/// from `weights_offset`. Workspace: the widened input, then (packed per run) the weights.
struct Q8Params {
  QuantParams q;
  const simd::ConvQ8* simd = nullptr;
  PackMode mode = PackMode::Plain;
  bool quad = false;  ///< weights packed in the quad form (simd/conv_q8.hpp)
  /// Quad form with whole groups of four input channels: the kernel reads the input in place,
  /// and the workspace holds only the zero row (decided once here, for the workspace's size
  /// and for every run).
  bool in_place = false;
  std::uint32_t out_c = 0, filter_h = 0, filter_w = 0, in_c = 0;
  std::size_t panel = 0, slots = 0, input_elements = 0, weights_offset = 0, input_bytes = 0;
};

static_assert(sizeof(Q8Params) <= kNodeParamBytes);

inline constexpr std::size_t kAlign = 64;
constexpr std::size_t align_up(std::size_t n) noexcept { return (n + kAlign - 1) / kAlign * kAlign; }

/// Plans an 8-bit node: multipliers, and the packed SIMD path when the shapes are known.
template <OperandType T>
Expected<Q8Params> plan_q8(const NodeIO& io, KernelPrepare& prepare, Kind kind) {
  std::vector<quant::Multiplier> channel;
  auto q = make_quant_params(io, kind, channel);
  if (!q) return std::move(q.error());
  Q8Params p;
  p.q = *q;
  if (!prepare.reference) p.simd = &simd::conv_q8_table();
  const RtOperand &x = io.input(0), &f = io.input(1), &bias = io.input(2);
  const std::size_t mult_bytes = align_up(channel.size() * sizeof(quant::Multiplier));
  // Reference kernels (KernelPrepare::reference): no table, never planned; plain_quant runs.
  bool planned = !prepare.reference && kind == Kind::Conv && x.rank_known && x.dims.rank() == 4 &&
                 x.dims.all_known() && f.rank_known && f.dims.rank() == 4 && f.dims.all_known() &&
                 bias.dims.rank() == 1 && bias.dims[0] == f.dims[0];
  if (planned) {
    p.out_c = f.dims[0], p.filter_h = f.dims[1], p.filter_w = f.dims[2], p.in_c = f.dims[3];
    p.panel = p.simd->panel_width(p.out_c);
    const std::uint64_t pixels = x.dims.element_count() / p.in_c;  // batch x height x width, either layout
    const std::uint64_t c2 = (std::uint64_t{p.in_c} + 1) / 2 * 2;
    p.slots = simd::conv_q8_packed_slots(p.out_c, std::size_t{p.filter_h} * p.filter_w, p.in_c, p.panel);
    const std::uint64_t elements = (pixels + 1) * c2;
    planned = p.panel != 0 && p.slots != 0 && p.slots < (std::size_t{1} << 28) && elements < (std::uint64_t{1} << 28);
    if (planned) {
      p.input_elements = static_cast<std::size_t>(elements);
      p.input_bytes = align_up(p.input_elements * sizeof(std::int16_t));
    }
  }
  const bool constant = planned && is_constant(f) && is_constant(bias) && f.data != nullptr && bias.data != nullptr &&
                        f.length >= f.required_bytes() && bias.length >= bias.required_bytes();
  p.weights_offset = mult_bytes;
  const bool per_channel_filter = f.type == OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL;
  if (constant && p.simd->has_quad()) {
    const auto n = static_cast<std::size_t>(f.required_bytes());  // one byte per element
    const bool fits = per_channel_filter
                          ? simd::conv_q8_quad_fits(reinterpret_cast<const std::int8_t*>(f.data), 0, n)
                          : simd::conv_q8_quad_fits(reinterpret_cast<const element_t<T>*>(f.data), f.zero_point, n);
    const std::size_t slots = simd::conv_q8_quad_slots(p.out_c, std::size_t{p.filter_h} * p.filter_w, p.in_c, p.panel);
    if (fits && slots != 0) p.quad = true, p.slots = slots;
  }
  std::byte* dst = nullptr;
  if (mult_bytes != 0 || constant) dst = prepare.pack(mult_bytes + (constant ? p.slots * sizeof(std::int32_t) : 0));
  if (dst != nullptr && !channel.empty()) std::memcpy(dst, channel.data(), channel.size() * sizeof(quant::Multiplier));
  if (constant) {
    p.mode = PackMode::Packed;
    p.in_place = p.quad && p.in_c % 4 == 0;
    prepare.workspace_bytes = p.in_place ? align_up(p.in_c) : p.input_bytes;
    if (dst != nullptr) {
      auto* w = reinterpret_cast<std::int32_t*>(dst + mult_bytes);
      const auto* bias_data = reinterpret_cast<const std::int32_t*>(bias.data);
      const std::size_t taps = std::size_t{p.filter_h} * p.filter_w;
      const quant::Multiplier* mult = channel.empty() ? &p.q.output : channel.data();
      const std::size_t step = channel.empty() ? 0 : 1;
      // The input zero point as the quad form's unsigned byte (int8 data is shifted by 128).
      const std::int32_t x_zero = x.zero_point + (T == OperandType::TENSOR_QUANT8_ASYMM_SIGNED ? 128 : 0);
      if (p.quad && per_channel_filter)
        simd::conv_q8_pack_quad(reinterpret_cast<const std::int8_t*>(f.data), 0, x_zero, bias_data, mult, step, p.out_c,
                                taps, p.in_c, p.panel, w);
      else if (p.quad)
        simd::conv_q8_pack_quad(reinterpret_cast<const element_t<T>*>(f.data), f.zero_point, x_zero, bias_data, mult,
                                step, p.out_c, taps, p.in_c, p.panel, w);
      else if (per_channel_filter)
        simd::conv_q8_pack(reinterpret_cast<const std::int8_t*>(f.data), 0, bias_data, mult, step, p.out_c, taps, p.in_c,
                           p.panel, w);
      else
        simd::conv_q8_pack(reinterpret_cast<const element_t<T>*>(f.data), f.zero_point, bias_data, mult, step, p.out_c,
                           taps, p.in_c, p.panel, w);
    }
  } else if (planned) {
    p.mode = PackMode::PackPerRun;
    prepare.workspace_bytes = p.input_bytes + p.slots * sizeof(std::int32_t);
  }
  return p;
}

/// Quantized input/output T with filter type F (T or TENSOR_QUANT8_SYMM_PER_CHANNEL): the
/// packed SIMD kernel when planned and the data is NHWC, else the plain integer kernel.
template <Kind K, OperandType T, OperandType F>
Status kernel_quant(const NodeIO& io) {
  using E = element_t<T>;
  auto s = run_spec(io, K);
  if (!s) return std::move(s.error());
  const RtOperand& out = io.output(0);
  if (out.dims.element_count() == 0) return {};
  const auto& p = io.params<Q8Params>();
  const auto* channel = reinterpret_cast<const quant::Multiplier*>(io.packed());
  if (p.q.per_channel && channel == nullptr)
    return NNHAL_FAILURE("%s per-channel multipliers were not prepared", op_name(K));
  const auto storage = quant::storage_range<E>();
  const auto range = quant::activation_range(static_cast<FusedActivationFunc>(s->activation), out.scale,
                                             out.zero_point, storage.min, storage.max);
  const E* x = io.in_data<T>(0);
  const element_t<F>* w = io.in_data<F>(1);
  const std::int32_t* bias = io.in_data<OperandType::TENSOR_INT32>(2);
  E* y = io.out_data<T>(0);
  const std::size_t pixels = std::size_t{s->in.n} * s->in.h * s->in.w;
  const bool planned = p.mode != PackMode::Plain && io.workspace() != nullptr &&
                       (p.mode == PackMode::PackPerRun || io.packed() != nullptr) && !s->nchw && s->groups == 1 &&
                       p.out_c == s->out_c && p.filter_h == static_cast<std::uint32_t>(s->g.filter_h) &&
                       p.filter_w == static_cast<std::uint32_t>(s->g.filter_w) && p.in_c == s->in.c &&
                       p.input_elements == (pixels + 1) * ((std::size_t{s->in.c} + 1) / 2 * 2);
  if (!planned) {
    plain_quant(*s, x, w, bias, y, p.q, channel, range);
    return {};
  }
  simd::ConvQ8Args a;
  auto* in16 = reinterpret_cast<std::int16_t*>(io.workspace());
  if (p.quad) {
    const std::int32_t x_zero = -p.q.input_offset + (T == OperandType::TENSOR_QUANT8_ASYMM_SIGNED ? 128 : 0);
    auto* in8 = reinterpret_cast<std::uint8_t*>(io.workspace());
    a.quad = true, a.in_c4 = (std::size_t{s->in.c} + 3) / 4 * 4;
    if (p.in_place) {
      // the kernel reads the input in place (int8 with its top bits flipped as it reads:
      // + 128), and the workspace holds only the zero row
      constexpr bool kSigned = T == OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
      a.quad_flip = kSigned;
      std::memset(in8, kSigned ? (x_zero ^ 0x80) : x_zero, a.in_c4);
      a.in_u8 = reinterpret_cast<const std::uint8_t*>(x), a.zero_row_u8 = in8;
    } else {
      simd::conv_q8_quad_input(x, pixels, s->in.c, static_cast<std::uint8_t>(x_zero), in8);
      a.in_u8 = in8;
    }
  } else if (s->in.c % 2 == 0) {  // one contiguous run, then the zero row
    const std::size_t n = pixels * s->in.c;
    if constexpr (T == OperandType::TENSOR_QUANT8_ASYMM)
      p.simd->widen_u8(x, -p.q.input_offset, n, in16);
    else
      p.simd->widen_i8(x, -p.q.input_offset, n, in16);
    std::memset(in16 + n, 0, s->in.c * sizeof(std::int16_t));
  } else {
    simd::conv_q8_widen_input(x, -p.q.input_offset, pixels, s->in.c, in16);
  }
  const std::int32_t* packed = nullptr;
  if (p.mode == PackMode::Packed) {
    packed = reinterpret_cast<const std::int32_t*>(io.packed() + p.weights_offset);
  } else {
    auto* ws = reinterpret_cast<std::int32_t*>(io.workspace() + p.input_bytes);
    simd::conv_q8_pack(w, -p.q.filter_offset, bias, p.q.per_channel ? channel : &p.q.output, p.q.per_channel ? 1 : 0,
                       p.out_c, std::size_t{p.filter_h} * p.filter_w, p.in_c, p.panel, ws);
    packed = ws;
  }
  a.in = in16, a.out = reinterpret_cast<std::uint8_t*>(y), a.packed = packed;
  a.batch = s->in.n, a.in_h = s->in.h, a.in_w = s->in.w, a.in_c2 = (std::size_t{s->in.c} + 1) / 2 * 2;
  a.out_h = s->g.out_h, a.out_w = s->g.out_w, a.out_c = s->out_c;
  a.filter_h = static_cast<std::size_t>(s->g.filter_h), a.filter_w = static_cast<std::size_t>(s->g.filter_w);
  a.stride_h = s->g.stride_h, a.stride_w = s->g.stride_w, a.dilation_h = s->g.dilation_h, a.dilation_w = s->g.dilation_w;
  a.pad_top = s->g.pad_h.head, a.pad_left = s->g.pad_w.head;
  a.panel = p.panel;
  a.signed_output = T == OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
  a.output_offset = p.q.output_offset, a.act_min = range.min, a.act_max = range.max;
  // Threads take ranges of output pixels, at least 2 tile groups each.
  for_each_piece(io.parallel(), a.out_h * a.out_w, simd::kConvQ8PixelGrain, 2 * simd::kConvQ8PixelGrain,
                 [&](std::size_t begin, std::size_t end, std::size_t) {
                   simd::ConvQ8Args piece = a;
                   piece.pixel_begin = begin, piece.pixel_end = end;
                   p.simd->run(piece);
                 });
  return {};
}

/// The kernels of CONV_2D (Kind::Conv) or GROUPED_CONV_2D (Kind::Grouped), keyed by the input
/// type; the filter type (same type or per-channel) is resolved at prepare too.
template <Kind K>
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                                    OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_ASYMM_SIGNED};
  static Status infer(const NodeIO& io) { return conv::infer(io, K); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO& io, KernelPrepare& prepare) {
    if constexpr (T == OperandType::TENSOR_FLOAT32) {
      if (prepare.reference) return &kernel_plain_float<K, T>;
      prepare.store(plan_f32(io, prepare, K));
      return &kernel_f32<K>;
    } else if constexpr (T == OperandType::TENSOR_FLOAT16) {
      return &kernel_plain_float<K, T>;
    } else {
      auto p = plan_q8<T>(io, prepare, K);
      if (!p) return std::move(p.error());
      prepare.store(*p);
      if (io.input(1).type == OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL)
        return &kernel_quant<K, T, OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL>;
      if (io.input(1).type != T) return NNHAL_FAILURE("%s filter type differs from the input type", op_name(K));
      return &kernel_quant<K, T, T>;
    }
  }
};

}  // namespace nnhal::kernels::conv
