#pragma once
/// \file
/// The kernels of CONV_2D and GROUPED_CONV_2D (one family template for both, Family<Kind>) and
/// the prepare-time choice: FLOAT32 single-group convolutions get their weights packed into
/// the SIMD kernel's panels once at prepare when filter and bias are constants, or into the
/// workspace on every run when they are runtime inputs of a shape known at prepare; at run the
/// packed kernel is taken for NHWC data, the plain kernel otherwise (NCHW, groups, shapes
/// unknown at prepare). FLOAT16 is computed in float; quantized types by the integer kernel.

#include <array>
#include <cstddef>
#include <cstdint>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/conv.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/simd/conv_f32.hpp"

namespace nnhal::kernels::conv {

/// How a FLOAT32 node runs the packed SIMD kernel.
enum class F32Mode : std::uint8_t {
  Plain,       ///< never (shapes unknown at prepare, or GROUPED_CONV_2D)
  Packed,      ///< weights packed at prepare (NodeIO::packed())
  PackPerRun,  ///< weights packed into the workspace on every run
};

/// FLOAT32 node parameters: the SIMD table and the filter shape the packing was planned for.
struct F32Params {
  const simd::ConvF32* simd = nullptr;
  F32Mode mode = F32Mode::Plain;
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
    p.mode = F32Mode::Packed;
    if (std::byte* dst = prepare.pack(p.packed_floats * sizeof(float)); dst != nullptr)
      simd::conv_f32_pack(reinterpret_cast<const float*>(f.data), reinterpret_cast<const float*>(bias.data), p.out_c,
                          k, p.panel, p.in_c, reinterpret_cast<float*>(dst));
  } else {
    p.mode = F32Mode::PackPerRun;
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
  const bool planned = p.mode != F32Mode::Plain && !s->nchw && s->groups == 1 && p.out_c == s->out_c &&
                       p.filter_h == static_cast<std::uint32_t>(s->g.filter_h) &&
                       p.filter_w == static_cast<std::uint32_t>(s->g.filter_w) && p.in_c == s->in.c;
  const float* packed = nullptr;
  if (planned && p.mode == F32Mode::Packed) {
    packed = reinterpret_cast<const float*>(io.packed());
  } else if (planned && io.workspace() != nullptr) {
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
  p.simd->run(a);
  return {};
}

/// FLOAT16: the plain kernel in float, one rounding to half per output.
template <Kind K>
Status kernel_f16(const NodeIO& io) {
  auto s = run_spec(io, K);
  if (!s) return std::move(s.error());
  if (io.output(0).dims.element_count() == 0) return {};
  plain_float(*s, io.in_data<OperandType::TENSOR_FLOAT16>(0), io.in_data<OperandType::TENSOR_FLOAT16>(1),
              io.in_data<OperandType::TENSOR_FLOAT16>(2), io.out_data<OperandType::TENSOR_FLOAT16>(0),
              float_activation_range(s->activation));
  return {};
}

/// Quantized input/output T with filter type F (T itself, or TENSOR_QUANT8_SYMM_PER_CHANNEL).
template <Kind K, OperandType T, OperandType F>
Status kernel_quant(const NodeIO& io) {
  using E = element_t<T>;
  auto s = run_spec(io, K);
  if (!s) return std::move(s.error());
  const RtOperand& out = io.output(0);
  if (out.dims.element_count() == 0) return {};
  const auto& p = io.params<QuantParams>();
  const auto* multipliers = reinterpret_cast<const quant::Multiplier*>(io.packed());
  if (p.per_channel && multipliers == nullptr)
    return NNHAL_FAILURE("%s per-channel multipliers were not prepared", op_name(K));
  const auto storage = quant::storage_range<E>();
  const auto range = quant::activation_range(static_cast<FusedActivationFunc>(s->activation), out.scale,
                                             out.zero_point, storage.min, storage.max);
  plain_quant(*s, io.in_data<T>(0), io.in_data<F>(1), io.in_data<OperandType::TENSOR_INT32>(2), io.out_data<T>(0), p,
              multipliers, range);
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
      prepare.store(plan_f32(io, prepare, K));
      return &kernel_f32<K>;
    } else if constexpr (T == OperandType::TENSOR_FLOAT16) {
      return &kernel_f16<K>;
    } else {
      auto p = make_quant_params(io, prepare, K);
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
