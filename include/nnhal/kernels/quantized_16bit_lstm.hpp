#pragma once
/// \file
/// QUANTIZED_16BIT_LSTM kernel (the row: nnhal/ops/quantized_16bit_lstm.hpp): one step of the
/// 8-bit LSTM cell of TFLite's quantized LstmCell, with a 16-bit cell state.
///
/// Numerics as the reference (NNAPI QuantizedLSTM.cpp, TFLite reference LstmCell<4>): per batch
/// row, unit and gate, acc = bias + sum over d of (v[d] - 128) * (w[d] - w_zp) in int32
/// (wrapping), where v = [input | previous output] and, a quirk followed (the corpus expects
/// it), w = [recurrent-to-gate row | input-to-gate row]: the reference concatenates the
/// activations input first but places the recurrent weights first, so the two line up only when
/// input_size == output_size. Rescaled by 4096 * bias scale (TFLite QuantizeMultiplier) and
/// saturated to int16, read as Q3.12. The gates, in int16 gemmlowp fixed point: input, forget,
/// output = logistic, cell = tanh; new state (Q4.11) = sat(Rescale<4>(input * cell) + forget *
/// state); output = 128 + clamp(rdbp(output gate * tanh(Rescale<3>(new state)), 8), -128, 127).
/// The reference's fixed quantization (checked at execution there) is checked by shape
/// inference here: input and previous output scale 1/128 and zero point 128, all weights one
/// scale (non-zero) and zero point, biases scale weight scale / 128 and zero point 0, cell state
/// zero point 0 and scale 2^-11. Nothing is allocated and no scratch is needed: the four gate
/// pre-activations of a unit are computed together.

#include <array>
#include <cstddef>
#include <cstdint>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/quantization.hpp"
#include "nnhal/kernels/common/quantized_lstm.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/quantized_16bit_lstm.hpp"

namespace nnhal::kernels::quantized_16bit_lstm {

inline constexpr const char* kName = "QUANTIZED_16BIT_LSTM";

// Input positions: gates in input order (input, forget, cell, output).
inline constexpr std::size_t kInput = 0, kInputToGate = 1, kRecurrentToGate = 5, kGateBias = 9, kPrevCell = 13,
                             kPrevOutput = 14;

struct Sizes {
  std::uint32_t batch = 0, input_size = 0, output_size = 0;
};

/// The reference's prepare checks, on the actual shapes and quantization.
inline Expected<Sizes> check(const NodeIO& io) {
  auto rank = [&](std::size_t i, std::size_t r) { return io.input(i).rank_known && io.input(i).dims.rank() == r; };
  const RtOperand &in = io.input(kInput), &prev = io.input(kPrevOutput), &cell = io.input(kPrevCell);
  if (!rank(kInput, 2)) return NNHAL_INVALID("%s input 0 must have rank 2", kName);
  if (!rank(kPrevOutput, 2)) return NNHAL_INVALID("%s input %zu (previous output) must have rank 2", kName, kPrevOutput);
  Sizes s{in.dims[0], in.dims[1], prev.dims[1]};
  if (prev.dims[0] != s.batch)
    return NNHAL_INVALID("%s previous output batch %" PRIu32 " differs from the input's %" PRIu32,
                         kName, prev.dims[0], s.batch);
  for (const RtOperand* a : {&in, &prev})
    if (a->scale != 1.0f / 128.0f || a->zero_point != 128)
      return NNHAL_INVALID("%s input and previous output need scale 1/128 and zero point 128", kName);
  const RtOperand& w0 = io.input(kInputToGate);
  if (w0.scale == 0.0f) return NNHAL_INVALID("%s weights scale is 0", kName);
  for (std::size_t g = 0; g < 4; ++g) {
    for (std::size_t i : {kInputToGate + g, kRecurrentToGate + g}) {
      const std::uint32_t cols = i < kRecurrentToGate ? s.input_size : s.output_size;
      const RtOperand& w = io.input(i);
      if (!rank(i, 2) || w.dims[0] != s.output_size || w.dims[1] != cols)
        return NNHAL_INVALID("%s input %zu must have shape [%" PRIu32 ", %" PRIu32 "]", kName, i,
                             s.output_size, cols);
      if (w.scale != w0.scale || w.zero_point != w0.zero_point)
        return NNHAL_INVALID("%s input %zu: all weights need one scale and zero point", kName, i);
    }
    const RtOperand& bias = io.input(kGateBias + g);
    if (!rank(kGateBias + g, 1) || bias.dims[0] != s.output_size)
      return NNHAL_INVALID("%s input %zu must have shape [%" PRIu32 "]", kName, kGateBias + g,
                           s.output_size);
    // Compared as the reference does: the float bias scale against weights scale / 128.0 in double.
    if (static_cast<double>(bias.scale) != static_cast<double>(w0.scale) / 128.0 || bias.zero_point != 0)
      return NNHAL_INVALID("%s input %zu: bias scale must be weights scale / 128 and zero point 0", kName,
                           kGateBias + g);
  }
  if (!rank(kPrevCell, 2) || cell.dims[0] != s.batch || cell.dims[1] != s.output_size)
    return NNHAL_INVALID("%s input %zu (previous cell state) must have shape [%" PRIu32 ", %" PRIu32
                         "]",
                         kName, kPrevCell, s.batch, s.output_size);
  int log2 = 0;
  if (cell.zero_point != 0 || !qlstm_common::checked_log2(cell.scale, log2) || log2 + 15 != 4)
    return NNHAL_INVALID("%s cell state needs scale 2^-11 and zero point 0", kName);
  return s;
}

/// Output shapes: the cell state as the previous one, the output as the previous output.
inline Status infer(const NodeIO& io) {
  auto s = check(io);
  if (!s) return std::move(s.error());
  NNHAL_TRY(set_output(io, 0, io.input(kPrevCell).dims));
  return set_output(io, 1, io.input(kPrevOutput).dims);
}

/// The accumulator multiplier, from the bias scale (input scale * weights scale).
struct Params {
  quant::Multiplier accum{};
};

/// One concatenated weights row times the concatenated activations (see the file comment):
/// int32 sum over (v[d] - 128) * (w[d] - zp), wrapping.
inline std::uint32_t concat_dot(const std::uint8_t* x, std::uint32_t n_x, const std::uint8_t* h, const std::uint8_t* wr,
                                std::uint32_t n_r, const std::uint8_t* wi, std::int32_t zp) noexcept {
  const std::uint32_t n = n_x + n_r;
  std::uint32_t acc = 0;
  for (std::uint32_t d = 0; d < n; ++d) {
    const std::int32_t v = d < n_x ? x[d] : h[d - n_x];
    const std::int32_t w = d < n_r ? wr[d] : wi[d - n_r];
    acc += static_cast<std::uint32_t>((v - 128) * (w - zp));
  }
  return acc;
}

inline Status kernel(const NodeIO& io) {
  auto se = check(io);
  if (!se) return std::move(se.error());
  const Sizes s = *se;
  if (io.output(0).data == nullptr || io.output(1).data == nullptr)
    return NNHAL_FAILURE("%s an output has no buffer", kName);
  const quant::Multiplier m = io.params<Params>().accum;
  const std::int32_t wzp = io.input(kInputToGate).zero_point;
  const auto* x_all = reinterpret_cast<const std::uint8_t*>(io.input(kInput).data);
  const auto* h_all = reinterpret_cast<const std::uint8_t*>(io.input(kPrevOutput).data);
  const auto* c_all = reinterpret_cast<const std::int16_t*>(io.input(kPrevCell).data);
  auto* c_out = reinterpret_cast<std::int16_t*>(io.output(0).data);
  auto* y_out = reinterpret_cast<std::uint8_t*>(io.output(1).data);
  std::array<const std::uint8_t*, 4> wi{}, wr{};
  std::array<const std::int32_t*, 4> bias{};
  for (std::size_t g = 0; g < 4; ++g) {
    wi[g] = reinterpret_cast<const std::uint8_t*>(io.input(kInputToGate + g).data);
    wr[g] = reinterpret_cast<const std::uint8_t*>(io.input(kRecurrentToGate + g).data);
    bias[g] = reinterpret_cast<const std::int32_t*>(io.input(kGateBias + g).data);
  }
  using fixed16::F;
  const std::uint32_t I = s.input_size, O = s.output_size;
  for (std::uint32_t b = 0; b < s.batch; ++b) {
    const std::uint8_t* x = x_all + std::size_t{b} * I;
    const std::uint8_t* h = h_all + std::size_t{b} * O;
    for (std::uint32_t c = 0; c < O; ++c) {
      std::array<F<3>, 4> pre{};
      for (std::size_t g = 0; g < 4; ++g) {
        const std::uint32_t acc = static_cast<std::uint32_t>(bias[g][c]) +
                                  concat_dot(x, I, h, wr[g] + std::size_t{c} * O, O, wi[g] + std::size_t{c} * I, wzp);
        const std::int32_t r = quant::multiply_by_quantized_multiplier(static_cast<std::int32_t>(acc), m.value, m.shift);
        pre[g] = F<3>::from_raw(qlstm_common::sat16(r));
      }
      const F<0> input_gate = fixed16::logistic(pre[0]);
      const F<0> forget_gate = fixed16::logistic(pre[1]);
      const F<0> cell_gate = fixed16::tanh(pre[2]);
      const F<0> output_gate = fixed16::logistic(pre[3]);
      const F<0> input_times_cell = input_gate * cell_gate;
      const F<4> state = F<4>::from_raw(c_all[std::size_t{b} * O + c]);
      const F<4> forget_times_state = forget_gate * state;
      const F<4> new_state =
          F<4>::from_raw(qlstm_common::sat16(std::int32_t{fixed16::rescale<4>(input_times_cell).raw} + forget_times_state.raw));
      const F<0> activ = output_gate * fixed16::tanh(fixed16::rescale<3>(new_state));
      c_out[std::size_t{b} * O + c] = new_state.raw;
      const std::int32_t rescaled = quant::rounding_divide_by_pot(activ.raw, 8);
      y_out[std::size_t{b} * O + c] = static_cast<std::uint8_t>(128 + qlstm_common::clamp64(rescaled, -128, 127));
    }
  }
  return {};
}

/// QUANTIZED_16BIT_LSTM's kernel (one type combination).
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_QUANT8_ASYMM};

  static Status infer(const NodeIO& io) { return quantized_16bit_lstm::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO& io, KernelPrepare& prepare) {
    // The reference: QuantizeMultiplier(4096 * bias scale), in double.
    Params p;
    p.accum = quant::quantize_multiplier(4096.0 * static_cast<double>(io.input(kGateBias).scale));
    prepare.store(p);
    return &kernel;
  }
};

}  // namespace nnhal::kernels::quantized_16bit_lstm

namespace nnhal {

template <>
struct Kernels<OperationType::QUANTIZED_16BIT_LSTM> : kernels::quantized_16bit_lstm::Family {};
static_assert(kernels_cover_row<OperationType::QUANTIZED_16BIT_LSTM>());

}  // namespace nnhal
