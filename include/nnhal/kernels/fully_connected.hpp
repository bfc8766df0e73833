#pragma once
/// \file
/// FULLY_CONNECTED kernels (the row: nnhal/ops/fully_connected.hpp): shape inference and one kernel per type.

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/activation.hpp"
#include "nnhal/kernels/common/dense_f32.hpp"
#include "nnhal/kernels/common/filter_requant.hpp"
#include "nnhal/kernels/common/quantization.hpp"
#include "nnhal/kernels/common/simd_params.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/fully_connected.hpp"
#include "nnhal/simd/fully_connected_f32.hpp"
#include "nnhal/simd/fully_connected_q8.hpp"

namespace nnhal::kernels::fully_connected {

/// Output shape [batch, num_units]. Same checks as at validation, on the actual shapes; only the
/// batch may be 0. Unlike the reference, a bias length that differs from num_units is always an
/// error (the reference skips the check for a zero-sized bias and then reads past it).
inline Status infer(const NodeIO& io) {
  const Dims& in = io.input(0).dims;
  const Dims& w = io.input(1).dims;
  const Dims& bias = io.input(2).dims;
  if (in.rank() < 2 || in.rank() > 4)
    return NNHAL_FAILURE("FULLY_CONNECTED input 0 has rank %zu, expected 2..4", in.rank());
  if (w.rank() != 2) return NNHAL_FAILURE("FULLY_CONNECTED weights have rank %zu, expected 2", w.rank());
  if (bias.rank() != 1) return NNHAL_FAILURE("FULLY_CONNECTED bias has rank %zu, expected 1", bias.rank());
  const std::uint32_t num_units = w[0], input_size = w[1];
  if (num_units == 0 || input_size == 0)
    return NNHAL_FAILURE("FULLY_CONNECTED weights [%" PRIu32 ", %" PRIu32 "] must not be empty",
                         num_units, input_size);
  const std::uint64_t elements = in.element_count();
  if (elements % input_size != 0)
    return NNHAL_FAILURE(
        "FULLY_CONNECTED input has %llu elements, not a multiple of input_size %" PRIu32,
        static_cast<unsigned long long>(elements), input_size);
  if (bias[0] != num_units)
    return NNHAL_FAILURE("FULLY_CONNECTED bias length %" PRIu32 " differs from num_units %" PRIu32,
                         bias[0], num_units);
  const std::uint64_t batch = elements / input_size;
  if (batch > UINT32_MAX) return NNHAL_FAILURE("FULLY_CONNECTED batch size too large");
  RtOperand& out = io.output(0);
  out.dims = Dims{static_cast<std::uint32_t>(batch), num_units};
  out.rank_known = true;
  return {};
}

/// Reads the activation scalar (input 3); GENERAL_FAILURE if it is not a defined code.
inline Expected<std::int32_t> activation(const NodeIO& io) {
  const std::int32_t act = io.scalar<OperandType::INT32>(3);
  if (!is_valid_activation(act)) return NNHAL_FAILURE("invalid fused activation %" PRId32, act);
  return act;
}

/// Reference FLOAT32 computation (nnhal/kernels/common/dense_f32.hpp, shared with the LSTM
/// cells' reference path).
using dense::reference_f32;

/// FLOAT32 through the table in the node's parameters: the SIMD family's, or under
/// KernelPrepare::reference dense::reference_f32_table() (reference_f32 in the table's shape).
/// Either computes every output on its own, so splitting the units across threads changes
/// nothing.
inline Status kernel_f32(const NodeIO& io) {
  auto act = activation(io);
  if (!act) return std::move(act.error());
  const FloatRange r = float_activation_range(*act);
  const auto w = io.in<OperandType::TENSOR_FLOAT32>(1);
  const auto o = io.out<OperandType::TENSOR_FLOAT32>(0);
  if (o.size() == 0) return {};  // zero-sized batch: nothing to compute
  const float* in = io.in<OperandType::TENSOR_FLOAT32>(0).data();
  const float* bias = io.in<OperandType::TENSOR_FLOAT32>(2).data();
  const std::size_t batch = o.dim(0), input_size = w.dim(1), units = w.dim(0);
  const simd::FullyConnectedF32& kernel = *io.params<SimdParams<simd::FullyConnectedF32>>().simd;
  if (batch != 1) {
    kernel.run(in, w.data(), bias, o.data(), batch, input_size, units, r.min, r.max);
    return {};
  }
  // One input row: threads take ranges of units (whole tiles of the kernel: multiples of 16).
  for_each_piece(io.parallel(), units, 16, 64, [&](std::size_t begin, std::size_t end, std::size_t) {
    kernel.run(in, w.data() + begin * input_size, bias == nullptr ? nullptr : bias + begin, o.data() + begin, 1,
               input_size, end - begin, r.min, r.max);
  });
  return {};
}

/// kernel_f32 under the name of the reference mode, so that a prepared node says which one it
/// runs (its table is the reference one).
inline Status kernel_f32_reference(const NodeIO& io) { return kernel_f32(io); }

/// FLOAT16: computed in float (same order as reference_f32), rounded to half once per output.
inline Status kernel_f16(const NodeIO& io) {
  auto act = activation(io);
  if (!act) return std::move(act.error());
  const FloatRange r = float_activation_range(*act);
  const auto x = io.in<OperandType::TENSOR_FLOAT16>(0);
  const auto w = io.in<OperandType::TENSOR_FLOAT16>(1);
  const auto bias = io.in<OperandType::TENSOR_FLOAT16>(2);
  const auto o = io.out<OperandType::TENSOR_FLOAT16>(0);
  const std::size_t batch = o.size() == 0 ? 0 : o.dim(0), input_size = w.dim(1), units = w.dim(0);
  for (std::size_t b = 0; b < batch; ++b) {
    for (std::size_t u = 0; u < units; ++u) {
      float total = 0.0f;
      for (std::size_t k = 0; k < input_size; ++k)
        total += static_cast<float>(x[b * input_size + k]) * static_cast<float>(w[u * input_size + k]);
      o[b * units + u] = Half(r.apply(total + static_cast<float>(bias[u])));
    }
  }
  return {};
}

/// Precomputed requantization of the quantized kernels, and the SIMD dot products when the
/// shapes were known at prepare (the workspace then holds the widened input row and the units'
/// sums: depth int16, then units int32, 64-byte aligned).
struct QuantParams {
  std::int32_t input_offset, weights_offset, output_offset;
  quant::Multiplier output;
  const simd::FullyConnectedQ8* simd = nullptr;
  std::uint32_t depth = 0, units = 0;  ///< the planned shape (simd != nullptr)
};

/// Bytes of the widened input row in the workspace (the sums follow).
constexpr std::size_t widened_row_bytes(std::size_t depth) noexcept { return (depth * 2 + 63) / 64 * 64; }

/// Builds QuantParams as the reference does (GetQuantizedConvolutionMultiplier, shared with the
/// convolutions: filter_requant::conv_multiplier), with its bias-scale check at prepare time.
inline Expected<QuantParams> make_quant_params(const NodeIO& io) noexcept {
  const RtOperand &in = io.input(0), &w = io.input(1), &bias = io.input(2), &out = io.output(0);
  auto m = filter_requant::conv_multiplier(in.scale, w.scale, bias.scale, out.scale, "FULLY_CONNECTED");
  if (!m) return std::move(m.error());
  QuantParams p{};
  p.input_offset = -in.zero_point;
  p.weights_offset = -w.zero_point;
  p.output_offset = out.zero_point;
  p.output = *m;
  return p;
}

/// TFLite reference integer FullyConnected: acc = bias[u] + sum (w + w_off) * (x + x_off) in
/// int32 (wrapping, as the hardware does, instead of undefined overflow), then rescaled,
/// offset and clamped to the activation range. Reference (KernelPrepare::reference): the plain
/// loop even when the SIMD dot products were planned.
template <OperandType T, bool Reference = false>
Status kernel_quant(const NodeIO& io) {
  using E = element_t<T>;
  auto act = activation(io);
  if (!act) return std::move(act.error());
  const auto& p = io.params<QuantParams>();
  const auto x = io.in<T>(0);
  const auto w = io.in<T>(1);
  const auto bias = io.in<OperandType::TENSOR_INT32>(2);
  const auto o = io.out<T>(0);
  const auto storage = quant::storage_range<E>();
  const auto range = quant::activation_range(static_cast<FusedActivationFunc>(*act), o.scale(),
                                             o.zero_point(), storage.min, storage.max);
  const std::size_t batch = o.size() == 0 ? 0 : o.dim(0), input_size = w.dim(1), units = w.dim(0);
  // Output (b, u) from its sum of products: plus the bias (wrapping), rescaled, offset, clamped.
  const auto finish = [&](std::size_t b, std::size_t u, std::uint32_t sum) {
    const std::uint32_t acc = sum + static_cast<std::uint32_t>(bias[u]);
    std::int32_t r = quant::multiply_by_quantized_multiplier(static_cast<std::int32_t>(acc), p.output.value,
                                                             p.output.shift);
    r += p.output_offset;
    r = r < range.min ? range.min : (r > range.max ? range.max : r);
    o[b * units + u] = static_cast<E>(r);
  };
  if (!Reference && p.simd != nullptr && io.workspace() != nullptr && p.depth == input_size && p.units == units) {
    // The SIMD dot products: per batch row, the input widened once (offset included), every
    // unit's exact int32 sum (threads take ranges of units), then bias, rescale and clamp.
    auto* row = reinterpret_cast<std::int16_t*>(io.workspace());
    auto* sums = reinterpret_cast<std::int32_t*>(io.workspace() + widened_row_bytes(input_size));
    const E* xd = x.data();
    const E* wd = w.data();
    for (std::size_t b = 0; b < batch; ++b) {
      for (std::size_t k = 0; k < input_size; ++k)
        row[k] = static_cast<std::int16_t>(xd[b * input_size + k] + p.input_offset);
      for_each_piece(io.parallel(), units, 4, 64, [&](std::size_t begin, std::size_t end, std::size_t) {
        if constexpr (T == OperandType::TENSOR_QUANT8_ASYMM)
          p.simd->dot_u8(row, wd + begin * input_size, p.weights_offset, input_size, end - begin, sums + begin);
        else
          p.simd->dot_s8(row, wd + begin * input_size, p.weights_offset, input_size, end - begin, sums + begin);
      });
      for (std::size_t u = 0; u < units; ++u) finish(b, u, static_cast<std::uint32_t>(sums[u]));
    }
    return {};
  }
  for (std::size_t b = 0; b < batch; ++b) {
    for (std::size_t u = 0; u < units; ++u) {
      std::uint32_t acc = 0;
      for (std::size_t k = 0; k < input_size; ++k) {
        const std::int32_t xv = x[b * input_size + k] + p.input_offset;
        const std::int32_t wv = w[u * input_size + k] + p.weights_offset;
        acc += static_cast<std::uint32_t>(xv * wv);
      }
      finish(b, u, acc);
    }
  }
  return {};
}

/// FULLY_CONNECTED's kernels, keyed by the input type.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                                    OperandType::TENSOR_QUANT8_ASYMM,
                                    OperandType::TENSOR_QUANT8_ASYMM_SIGNED};
  static Status infer(const NodeIO& io) { return fully_connected::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO& io, KernelPrepare& prepare) {
    if constexpr (T == OperandType::TENSOR_FLOAT32) {
      prepare.store(simd_params(prepare.reference ? dense::reference_f32_table() : simd::fully_connected_f32_table()));
      return prepare.reference ? &kernel_f32_reference : &kernel_f32;
    } else if constexpr (T == OperandType::TENSOR_FLOAT16) {
      return &kernel_f16;
    } else {
      auto p = make_quant_params(io);
      if (!p) return std::move(p.error());
      // The SIMD path needs the weights' shape now, to plan its workspace.
      const RtOperand& w = io.input(1);
      if (prepare.reference) {  // the plain loop, no SIMD dot products
        prepare.store(*p);
        return &kernel_quant<T, true>;
      }
      if (w.rank_known && w.dims.rank() == 2 && w.dims.all_known() && w.dims[0] != 0 && w.dims[1] != 0 &&
          w.dims[1] <= (std::uint32_t{1} << 24) && w.dims[0] <= (std::uint32_t{1} << 24)) {
        p->simd = &simd::fully_connected_q8_table();
        p->depth = w.dims[1], p->units = w.dims[0];
        prepare.workspace_bytes = widened_row_bytes(p->depth) + std::size_t{p->units} * sizeof(std::int32_t);
      }
      prepare.store(*p);
      return &kernel_quant<T>;
    }
  }
};

}  // namespace nnhal::kernels::fully_connected

namespace nnhal {

template <>
struct Kernels<OperationType::FULLY_CONNECTED> : kernels::fully_connected::Family {};
static_assert(kernels_cover_row<OperationType::FULLY_CONNECTED>());

}  // namespace nnhal
