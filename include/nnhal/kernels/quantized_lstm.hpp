#pragma once
/// \file
/// QUANTIZED_LSTM kernel (the row: nnhal/ops/quantized_lstm.hpp): one step of a fully quantized
/// LSTM cell, QAS8 activations, QS8 weights, QS16 cell state and gate buffers, with optional
/// CIFG, peephole, projection, layer normalization and cell / projection clipping.
///
/// Numerics as the reference (NNAPI QLSTM.cpp and QuantUtils), per batch row:
/// - each gate: int32 sum over (x - x_zp) * w for the input and for the previous output, each
///   rescaled by its effective multiplier (weight scale * activation scale / the gate's
///   intermediate scale) and added, saturated to int16, into the gate buffer; a peephole adds
///   mbqm(cell_to_gate * cell, scale 2^cell_shift * peephole scale / intermediate scale);
/// - with layer normalization: the reference's integer mean / variance (x 1024, overflow guard
///   2^20, 1/sqrt multiplier), times the layer-norm weight, plus the gate bias, rescaled by the
///   layer-norm scale (shift + 12). Without layer normalization the gate biases are not used at
///   all: the reference folds only the zero points into its effective biases (a quirk, followed);
/// - forget, input and output gates: logistic on Q3.12; cell gate: tanh on Q3.12; CIFG input gate
///   = 32767 - forget gate;
/// - cell = sat16(rdbp(forget * cell_in, 15) + rdbp(input * cell_gate, 30 + cell_shift)),
///   clipped to the quantized cell clip when it is > 0;
/// - hidden = clamp8(mbqm(output_gate * tanh(cell), 2^-30 / hidden scale) - hidden zero point)
///   (the reference subtracts the zero point: a quirk, followed);
/// - projection: int32 bias + sum over (h + hidden zero point) * w (the reference's effective
///   bias adds the zero point: followed), rescaled by proj scale * hidden scale / output scale,
///   plus the previous output's zero point, clamped to int8, clipped when the clip is > 0;
///   without projection the hidden state is the output. The output state is a copy.
///
/// Where nnhal departs from the reference, because the reference reads memory it never wrote:
/// the input and forget gates' peepholes read the previous cell state (the reference reads the
/// not yet computed output cell state; TFLite, whose kernel it ports, updates the state in place
/// so reads the previous one there) and peepholes run over num_units (the reference passes
/// output_size). Refused with INVALID_ARGUMENT, where the reference would compute garbage or
/// read out of bounds: a cell state scale that is not 2^-15 .. 2^-9 (its tanh handles 0..6
/// integer bits), no projection with output_size != num_units, a hidden zero point outside int8,
/// and a non-finite or negative effective scale of a present tensor.
///
/// Every multiplier is computed once at prepare when the scalar inputs 24..31 are constants
/// (packed with the node), else per execution on the stack. Gate buffers for one batch row come
/// from the execution's workspace; nothing is allocated while running.

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/fixed_point.hpp"
#include "nnhal/kernels/common/quantization.hpp"
#include "nnhal/kernels/common/quantized_lstm.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/quantized_lstm.hpp"

namespace nnhal::kernels::quantized_lstm {

inline constexpr const char* kName = "QUANTIZED_LSTM";

// Input positions.
inline constexpr std::size_t kInput = 0, kInputToGate = 1, kRecurrentToGate = 5, kCellToInput = 9,
                             kCellToForget = 10, kCellToOutput = 11, kGateBias = 12, kProjWeights = 16,
                             kProjBias = 17, kPrevOutput = 18, kPrevCell = 19, kLayerNorm = 20, kCellClip = 24,
                             kProjClip = 25, kIntermediateScale = 26, kHiddenZeroPoint = 30, kHiddenScale = 31;
/// Gates in input order: input, forget, cell, output.
enum Gate : std::size_t { kIn = 0, kForget = 1, kCell = 2, kOut = 3 };

/// Peephole input of gate g (none for the cell gate).
constexpr std::size_t peephole_of(std::size_t g) noexcept {
  return g == kIn ? kCellToInput : (g == kForget ? kCellToForget : kCellToOutput);
}

/// The sizes of one node, read from its actual shapes.
struct Sizes {
  std::uint32_t batch = 0, input_size = 0, num_units = 0, output_size = 0;
  bool cifg = false, peephole = false, layer_norm = false, projection = false;
};

inline Status expect_dims(const NodeIO& io, std::size_t i, std::initializer_list<std::uint32_t> want) {
  const RtOperand& op = io.input(i);
  bool ok = op.rank_known && op.dims.rank() == want.size();
  std::size_t k = 0;
  for (std::uint32_t w : want) ok = ok && op.dims[k++] == w;
  if (!ok) {
    if (want.size() == 1)
      return NNHAL_INVALID("%s input %zu must have shape [%" PRIu32 "]", kName, i, *want.begin());
    return NNHAL_INVALID("%s input %zu must have shape [%" PRIu32 ", %" PRIu32 "]", kName, i,
                         *want.begin(), *(want.begin() + 1));
  }
  return {};
}

inline Status expect_rank2(const NodeIO& io, std::size_t i) {
  const RtOperand& op = io.input(i);
  if (!op.rank_known || op.dims.rank() != 2) return NNHAL_INVALID("%s input %zu must have rank 2", kName, i);
  return {};
}

/// The reference's prepare-time checks on the actual shapes and on which optional tensors are
/// given. With `optional` false only the required tensors are checked (shape inference at
/// prepare, when a request may still omit an optional subgraph input).
inline Expected<Sizes> check(const NodeIO& io, bool optional) {
  for (std::size_t i : {kInput, kInputToGate + 1, kInputToGate + 2, kInputToGate + 3, kRecurrentToGate + 1,
                        kRecurrentToGate + 2, kRecurrentToGate + 3, kGateBias + 1, kGateBias + 2, kGateBias + 3,
                        kPrevOutput, kPrevCell})
    if (!io.has_input(i)) return NNHAL_INVALID("%s required input %zu is omitted", kName, i);
  Sizes s;
  NNHAL_TRY(expect_rank2(io, kInput));
  s.batch = io.input(kInput).dims[0];
  s.input_size = io.input(kInput).dims[1];
  NNHAL_TRY(expect_rank2(io, kInputToGate + kOut));
  s.num_units = io.input(kInputToGate + kOut).dims[0];
  NNHAL_TRY(expect_rank2(io, kRecurrentToGate + kOut));
  s.output_size = io.input(kRecurrentToGate + kOut).dims[1];
  const std::uint32_t U = s.num_units, I = s.input_size, O = s.output_size, B = s.batch;
  for (std::size_t g : {kForget, kCell, kOut}) {
    NNHAL_TRY(expect_dims(io, kInputToGate + g, {U, I}));
    NNHAL_TRY(expect_dims(io, kRecurrentToGate + g, {U, O}));
    NNHAL_TRY(expect_dims(io, kGateBias + g, {U}));
  }
  NNHAL_TRY(expect_dims(io, kPrevOutput, {B, O}));
  NNHAL_TRY(expect_dims(io, kPrevCell, {B, U}));
  if (!optional) return s;

  auto has = [&](std::size_t i) { return io.has_input(i); };
  if (has(kInputToGate + kIn) != has(kRecurrentToGate + kIn))
    return NNHAL_INVALID("%s input-to-input and recurrent-to-input weights must be given together", kName);
  s.cifg = !has(kInputToGate + kIn);
  if (!s.cifg) {
    NNHAL_TRY(expect_dims(io, kInputToGate + kIn, {U, I}));
    NNHAL_TRY(expect_dims(io, kRecurrentToGate + kIn, {U, O}));
    if (!has(kGateBias + kIn)) return NNHAL_INVALID("%s input gate bias is required without CIFG", kName);
    NNHAL_TRY(expect_dims(io, kGateBias + kIn, {U}));
  } else if (has(kGateBias + kIn)) {
    return NNHAL_INVALID("%s input gate bias is given under CIFG", kName);
  }
  for (std::size_t i : {kCellToInput, kCellToForget, kCellToOutput})
    if (has(i)) NNHAL_TRY(expect_dims(io, i, {U}));
  const bool all_peep = (has(kCellToInput) || s.cifg) && has(kCellToForget) && has(kCellToOutput);
  const bool no_peep = !has(kCellToInput) && !has(kCellToForget) && !has(kCellToOutput);
  if (!all_peep && !no_peep) return NNHAL_INVALID("%s peephole weights must be given all or none", kName);
  s.peephole = all_peep;
  for (std::size_t g = 0; g < 4; ++g)
    if (has(kLayerNorm + g)) NNHAL_TRY(expect_dims(io, kLayerNorm + g, {U}));
  const bool rest = has(kLayerNorm + kForget) && has(kLayerNorm + kCell) && has(kLayerNorm + kOut);
  const bool none = !has(kLayerNorm + kForget) && !has(kLayerNorm + kCell) && !has(kLayerNorm + kOut);
  if (s.cifg && has(kLayerNorm + kIn)) return NNHAL_INVALID("%s input layer-norm weights are given under CIFG", kName);
  if (!(rest && (s.cifg || has(kLayerNorm + kIn))) && !(none && !has(kLayerNorm + kIn)))
    return NNHAL_INVALID("%s layer-norm weights must be given all or none", kName);
  s.layer_norm = rest;
  s.projection = has(kProjWeights);
  if (s.projection) {
    NNHAL_TRY(expect_dims(io, kProjWeights, {O, U}));
    if (has(kProjBias)) NNHAL_TRY(expect_dims(io, kProjBias, {O}));
  } else if (O != U) {
    // The reference copies batch * output_size values out of its batch * num_units hidden state.
    return NNHAL_INVALID("%s output size %" PRIu32 " differs from num_units %" PRIu32
                         " without projection",
                         kName, O, U);
  }
  return s;
}

/// Output shapes: output state and output as the previous output, cell state as the previous one.
inline Status infer(const NodeIO& io) {
  auto s = check(io, false);
  if (!s) return std::move(s.error());
  NNHAL_TRY(set_output(io, 0, io.input(kPrevOutput).dims));
  NNHAL_TRY(set_output(io, 1, io.input(kPrevCell).dims));
  return set_output(io, 2, io.input(kPrevOutput).dims);
}

/// Every effective multiplier and quantized parameter of a node. `bad` has bit i set when the
/// multiplier of input i (or of slot kHiddenScale for the hidden state) came out non-finite or
/// negative: an error only when that tensor is given.
struct Scales {
  std::array<quant::Multiplier, 4> input{}, recurrent{}, peephole{}, norm{};
  quant::Multiplier hidden{}, projection{};
  std::array<std::int32_t, 4> variance_limit{};
  std::uint64_t bad = 0;
  int cell_shift = 0;  ///< log2 of the cell state scale, in [-15, -9] (checked_log2 writes an int)
  std::int16_t cell_clip = 0;
  std::int8_t projection_clip = 0;
  std::int8_t hidden_zero_point = 0;
};

/// The reference's QuantizeMultiplier of `real` (computed in float where the reference stores a
/// float), recording a bad value under bit `slot`.
inline quant::Multiplier multiplier(double real, std::size_t slot, Scales& s) noexcept {
  if (!std::isfinite(real) || real < 0.0) {
    s.bad |= std::uint64_t{1} << slot;
    return {};
  }
  return quant::quantize_multiplier(real);
}

/// Computes the Scales from the operands' quantization and the scalar inputs 24..31.
inline Expected<Scales> compute_scales(const NodeIO& io) {
  Scales s;
  const float cell_clip = io.scalar<OperandType::FLOAT32>(kCellClip);
  const float proj_clip = io.scalar<OperandType::FLOAT32>(kProjClip);
  const std::int32_t hidden_zp = io.scalar<OperandType::INT32>(kHiddenZeroPoint);
  const float hidden_scale = io.scalar<OperandType::FLOAT32>(kHiddenScale);
  const float cell_scale = io.input(kPrevCell).scale;
  if (!qlstm_common::checked_log2(cell_scale, s.cell_shift) || s.cell_shift > -9 || s.cell_shift < -15)
    return NNHAL_INVALID("%s cell state scale %g is not a power of two in [2^-15, 2^-9]", kName,
                         static_cast<double>(cell_scale));
  // The reference reads this INT32 scalar as an int8_t.
  if (hidden_zp < -128 || hidden_zp > 127)
    return NNHAL_INVALID("%s hidden state zero point %" PRId32 " is outside int8", kName,
                         hidden_zp);
  s.hidden_zero_point = static_cast<std::int8_t>(hidden_zp);
  const float in_scale = io.input(kInput).scale, out_scale = io.input(kPrevOutput).scale;
  const double cell_pot = std::pow(2.0, s.cell_shift);
  for (std::size_t g = 0; g < 4; ++g) {
    const float inter = io.scalar<OperandType::FLOAT32>(kIntermediateScale + g);
    // float products and quotients, as the reference's float locals.
    const float ig = io.input(kInputToGate + g).scale * in_scale / inter;
    const float rg = io.input(kRecurrentToGate + g).scale * out_scale / inter;
    s.input[g] = multiplier(ig, kInputToGate + g, s);
    s.recurrent[g] = multiplier(rg, kRecurrentToGate + g, s);
    if (g != kCell) {
      const auto cg = static_cast<float>(cell_pot * io.input(peephole_of(g)).scale / inter);
      s.peephole[g] = multiplier(cg, peephole_of(g), s);
    }
    const float ln_scale = io.input(kLayerNorm + g).scale;
    s.norm[g] = multiplier(ln_scale, kLayerNorm + g, s);
    // The layer norm rescales with shift + 12; keep that a valid int32 shift.
    if (s.norm[g].shift + 12 > 31) s.bad |= std::uint64_t{1} << (kLayerNorm + g);
    // min(1, int(10000 * scale)), the variance used when the computed one is below 1.
    const float v = 10000.0f * ln_scale;
    s.variance_limit[g] = v >= 1.0f ? 1 : (v > -2147483520.0f ? static_cast<std::int32_t>(v) : INT32_MIN);
  }
  const auto hs = static_cast<float>(std::pow(2.0, -15) / hidden_scale * std::pow(2.0, -15));
  s.hidden = multiplier(hs, kHiddenScale, s);
  const float proj_scale = io.input(kProjWeights).scale;
  s.projection = multiplier(proj_scale * hidden_scale / out_scale, kProjWeights, s);
  if (cell_clip > 0.0f)
    s.cell_clip = static_cast<std::int16_t>(std::fmin(std::fmax(cell_clip / cell_scale, -32768.0f), 32767.0f));
  if (proj_clip > 0.0f)
    s.projection_clip = static_cast<std::int8_t>(std::fmin(std::fmax(proj_clip / proj_scale, -128.0f), 127.0f));
  return s;
}

/// What select stores in the node.
struct Planned {
  std::uint32_t units = 0;    ///< num_units the workspace was planned for
  bool scales_packed = false;  ///< Scales computed at prepare, in packed()
};

/// Workspace bytes for one batch row of `units`: four int16 gate rows and the int8 hidden row.
constexpr std::size_t workspace_for(std::uint64_t units) noexcept {
  return static_cast<std::size_t>(units * (4 * sizeof(std::int16_t) + 1));
}

/// One batch row of the int8 matrix product: gate[u] = sat16(gate[u] + mbqm(sum_c (x[c] - zp) *
/// w[u][c], m)).
inline void accumulate_matmul(const std::int8_t* x, std::int32_t zp, const std::int8_t* w, std::uint32_t n_in,
                              std::uint32_t units, const quant::Multiplier& m, std::int16_t* gate) noexcept {
  for (std::uint32_t u = 0; u < units; ++u) {
    const std::int8_t* row = w + static_cast<std::size_t>(u) * n_in;
    std::uint32_t acc = 0;  // the reference's int32 sum, wrapping
    for (std::uint32_t c = 0; c < n_in; ++c)
      acc += static_cast<std::uint32_t>((std::int32_t{x[c]} - zp) * std::int32_t{row[c]});
    const std::int32_t r = quant::multiply_by_quantized_multiplier(static_cast<std::int32_t>(acc), m.value, m.shift);
    gate[u] = qlstm_common::sat16(std::int64_t{r} + gate[u]);
  }
}

/// The reference's ApplyLayerNorm on one batch row, in place.
inline void layer_norm(std::int16_t* gate, const std::int16_t* weights, const std::int32_t* bias,
                       const quant::Multiplier& scale, std::int32_t variance_limit, std::uint32_t n) noexcept {
  constexpr std::int64_t kOverflowGuard = 1 << 20;
  std::int64_t sum = 0, sum_sq = 0;
  for (std::uint32_t j = 0; j < n; ++j) {
    sum += gate[j];
    sum_sq += std::int64_t{gate[j]} * gate[j];
  }
  const auto mean = static_cast<std::int32_t>(sum * 1024 / static_cast<std::int64_t>(n));
  const std::int64_t temp = kOverflowGuard / static_cast<std::int64_t>(n);
  const std::int64_t variance = sum_sq * temp - std::int64_t{mean} * mean;
  auto variance2 = static_cast<std::int32_t>(variance / kOverflowGuard);
  if (variance2 < 1) variance2 = variance_limit;
  const quant::Multiplier inv = fixed::inv_sqrt_multiplier(variance2);
  for (std::uint32_t j = 0; j < n; ++j) {
    const std::int32_t shifted = 1024 * std::int32_t{gate[j]} - mean;
    const std::int32_t rescaled = quant::multiply_by_quantized_multiplier(shifted, inv.value, inv.shift);
    // rescaled * weight + bias is int32 arithmetic in the reference, widened afterwards.
    const std::int64_t val3 = fixed::wrap_add(qlstm_common::wrap_mul(rescaled, weights[j]), bias[j]);
    const auto val4 = static_cast<std::int32_t>((val3 > 0 ? val3 + 512 : val3 - 512) / 1024);
    const std::int32_t val5 = quant::multiply_by_quantized_multiplier(val4, scale.value, scale.shift + 12);
    gate[j] = qlstm_common::sat16(val5);
  }
}

/// The tensors of a node, as element pointers (nullptr when omitted).
struct Tensors {
  const std::int8_t *input = nullptr, *prev_output = nullptr, *projection = nullptr;
  std::array<const std::int8_t*, 4> input_w{}, recurrent_w{};
  std::array<const std::int16_t*, 4> peephole{}, norm{};
  std::array<const std::int32_t*, 4> bias{};
  const std::int32_t* projection_bias = nullptr;
  const std::int16_t* prev_cell = nullptr;
};

inline Tensors tensors_of(const NodeIO& io) {
  auto i8 = [&](std::size_t i) { return io.has_input(i) ? reinterpret_cast<const std::int8_t*>(io.input(i).data) : nullptr; };
  auto i16 = [&](std::size_t i) { return io.has_input(i) ? reinterpret_cast<const std::int16_t*>(io.input(i).data) : nullptr; };
  auto i32 = [&](std::size_t i) { return io.has_input(i) ? reinterpret_cast<const std::int32_t*>(io.input(i).data) : nullptr; };
  Tensors t;
  t.input = i8(kInput);
  t.prev_output = i8(kPrevOutput);
  t.projection = i8(kProjWeights);
  t.projection_bias = i32(kProjBias);
  t.prev_cell = i16(kPrevCell);
  for (std::size_t g = 0; g < 4; ++g) {
    t.input_w[g] = i8(kInputToGate + g);
    t.recurrent_w[g] = i8(kRecurrentToGate + g);
    t.peephole[g] = g == kCell ? nullptr : i16(peephole_of(g));
    t.norm[g] = i16(kLayerNorm + g);
    t.bias[g] = i32(kGateBias + g);
  }
  return t;
}

/// Runs one step.
inline Status kernel(const NodeIO& io) {
  auto se = check(io, true);
  if (!se) return std::move(se.error());
  const Sizes& s = *se;
  const Planned& planned = io.params<Planned>();
  Scales sc;
  if (planned.scales_packed && io.packed() != nullptr) {
    std::memcpy(&sc, io.packed(), sizeof sc);
  } else {
    auto computed = compute_scales(io);
    if (!computed) return std::move(computed.error());
    sc = *computed;
  }
  // A bad multiplier matters only for a tensor that is used.
  for (std::size_t g = 0; g < 4; ++g) {
    const bool gate_used = g != kIn || !s.cifg;
    const std::uint64_t used = (gate_used ? (std::uint64_t{1} << (kInputToGate + g)) | (std::uint64_t{1} << (kRecurrentToGate + g)) : 0) |
                               (gate_used && s.peephole && g != kCell ? std::uint64_t{1} << peephole_of(g) : 0) |
                               (gate_used && s.layer_norm ? std::uint64_t{1} << (kLayerNorm + g) : 0);
    if ((sc.bad & used) != 0)
      return NNHAL_INVALID("%s an effective scale of gate %zu is not finite and non-negative (check the weight, "
                           "intermediate and layer-norm scales)", kName, g);
  }
  if ((sc.bad & (std::uint64_t{1} << kHiddenScale)) != 0)
    return NNHAL_INVALID("%s the hidden state scale gives no finite multiplier", kName);
  if (s.projection && (sc.bad & (std::uint64_t{1} << kProjWeights)) != 0)
    return NNHAL_INVALID("%s the projection scale is not finite and non-negative", kName);
  const std::uint32_t U = s.num_units, O = s.output_size;
  if (s.batch == 0 || U == 0) return {};
  if (U > planned.units)
    return NNHAL_FAILURE("%s: num_units %" PRIu32
                         " needs more scratch than planned at prepare for %" PRIu32
                         " units (the weights' "
                         "shape was unknown then)",
                         kName, U, planned.units);
  for (std::size_t o = 0; o < 3; ++o)
    if (io.output(o).data == nullptr) return NNHAL_FAILURE("%s output %zu has no buffer", kName, o);

  const Tensors t = tensors_of(io);
  std::int8_t* out_state = reinterpret_cast<std::int8_t*>(io.output(0).data);
  std::int16_t* cell_out = reinterpret_cast<std::int16_t*>(io.output(1).data);
  std::int8_t* output = reinterpret_cast<std::int8_t*>(io.output(2).data);
  std::int16_t* gates = reinterpret_cast<std::int16_t*>(io.workspace());
  std::array<std::int16_t*, 4> gate{gates, gates + U, gates + 2 * std::size_t{U}, gates + 3 * std::size_t{U}};
  std::int8_t* hidden = reinterpret_cast<std::int8_t*>(gates + 4 * std::size_t{U});
  const std::int32_t in_zp = io.input(kInput).zero_point, out_zp = io.input(kPrevOutput).zero_point;

  for (std::uint32_t b = 0; b < s.batch; ++b) {
    const std::int8_t* x = t.input + std::size_t{b} * s.input_size;
    const std::int8_t* h_in = t.prev_output + std::size_t{b} * O;
    const std::int16_t* c_in = t.prev_cell + std::size_t{b} * U;
    std::int16_t* c_out = cell_out + std::size_t{b} * U;
    // Pre-activation of gate g; the peephole reads `cell` (see the file comment).
    auto pre_activation = [&](std::size_t g, const std::int16_t* cell) {
      std::int16_t* dst = gate[g];
      std::memset(dst, 0, U * sizeof(std::int16_t));
      accumulate_matmul(x, in_zp, t.input_w[g], s.input_size, U, sc.input[g], dst);
      accumulate_matmul(h_in, out_zp, t.recurrent_w[g], O, U, sc.recurrent[g], dst);
      if (s.peephole && g != kCell && t.peephole[g] != nullptr) {
        const quant::Multiplier& m = sc.peephole[g];
        for (std::uint32_t u = 0; u < U; ++u) {
          const std::int32_t prod = std::int32_t{t.peephole[g][u]} * cell[u];
          dst[u] = qlstm_common::sat16(std::int64_t{quant::multiply_by_quantized_multiplier(prod, m.value, m.shift)} + dst[u]);
        }
      }
      if (s.layer_norm) layer_norm(dst, t.norm[g], t.bias[g], sc.norm[g], sc.variance_limit[g], U);
    };
    auto sigmoid = [&](std::int16_t* v) {
      for (std::uint32_t u = 0; u < U; ++u) v[u] = fixed16::logistic(fixed16::F<3>::from_raw(v[u])).raw;
    };

    pre_activation(kForget, c_in);
    sigmoid(gate[kForget]);
    pre_activation(kCell, c_in);
    for (std::uint32_t u = 0; u < U; ++u) gate[kCell][u] = fixed16::tanh(fixed16::F<3>::from_raw(gate[kCell][u])).raw;
    if (s.cifg) {
      for (std::uint32_t u = 0; u < U; ++u) gate[kIn][u] = static_cast<std::int16_t>(32767 - gate[kForget][u]);
    } else {
      pre_activation(kIn, c_in);
      sigmoid(gate[kIn]);
    }
    const int ic_shift = 30 + sc.cell_shift;
    for (std::uint32_t u = 0; u < U; ++u) {
      // CwiseMul: the products rounded and narrowed to int16 (they fit), then a saturating add.
      const auto fc = static_cast<std::int16_t>(quant::rounding_divide_by_pot(std::int32_t{gate[kForget][u]} * c_in[u], 15));
      const auto ic = static_cast<std::int16_t>(
          quant::rounding_divide_by_pot(std::int32_t{gate[kIn][u]} * gate[kCell][u], ic_shift));
      std::int16_t c = qlstm_common::sat16(std::int32_t{fc} + ic);
      if (sc.cell_clip > 0) c = static_cast<std::int16_t>(qlstm_common::clamp64(c, -sc.cell_clip, sc.cell_clip));
      c_out[u] = c;
    }
    pre_activation(kOut, c_out);
    sigmoid(gate[kOut]);
    const int tanh_bits = sc.cell_shift + 15;
    for (std::uint32_t u = 0; u < U; ++u) {
      const std::int16_t th = fixed16::tanh_raw(tanh_bits, c_out[u]);
      std::int32_t v = std::int32_t{gate[kOut][u]} * th;
      v = quant::multiply_by_quantized_multiplier(v, sc.hidden.value, sc.hidden.shift) - sc.hidden_zero_point;
      hidden[u] = static_cast<std::int8_t>(qlstm_common::clamp64(v, -128, 127));
    }
    std::int8_t* y = output + std::size_t{b} * O;
    if (s.projection) {
      const quant::Multiplier& m = sc.projection;
      for (std::uint32_t o = 0; o < O; ++o) {
        const std::int8_t* row = t.projection + std::size_t{o} * U;
        std::uint32_t acc = t.projection_bias != nullptr ? static_cast<std::uint32_t>(t.projection_bias[o]) : 0u;
        for (std::uint32_t u = 0; u < U; ++u)
          acc += static_cast<std::uint32_t>((std::int32_t{hidden[u]} + sc.hidden_zero_point) * std::int32_t{row[u]});
        const std::int64_t r =
            std::int64_t{quant::multiply_by_quantized_multiplier(static_cast<std::int32_t>(acc), m.value, m.shift)} + out_zp;
        std::int64_t q = qlstm_common::clamp64(r, -128, 127);
        if (sc.projection_clip > 0) q = qlstm_common::clamp64(q, -sc.projection_clip, sc.projection_clip);
        y[o] = static_cast<std::int8_t>(q);
      }
    } else {
      std::memcpy(y, hidden, O);
    }
    std::memcpy(out_state + std::size_t{b} * O, y, O);
  }
  return {};
}

/// QUANTIZED_LSTM's kernel (one type combination).
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_QUANT8_ASYMM_SIGNED};

  static Status infer(const NodeIO& io) { return quantized_lstm::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO& io, KernelPrepare& prepare) {
    Planned p;
    const RtOperand& w = io.input(kInputToGate + kOut);
    if (w.rank_known && w.dims.rank() == 2 && w.dims.all_known()) {
      p.units = w.dims[0];
      prepare.workspace_bytes = workspace_for(p.units);
    }
    bool constant_scalars = true;
    for (std::size_t i = kCellClip; i <= kHiddenScale; ++i) {
      const OperandLifeTime l = io.input(i).lifetime;
      constant_scalars = constant_scalars && io.input(i).data != nullptr &&
                         (l == OperandLifeTime::CONSTANT_COPY || l == OperandLifeTime::CONSTANT_REFERENCE);
    }
    if (constant_scalars) {
      auto sc = compute_scales(io);
      if (!sc) return std::move(sc.error());
      if (std::byte* packed = prepare.pack(sizeof(Scales)); packed != nullptr) {
        std::memcpy(packed, &*sc, sizeof(Scales));
        p.scales_packed = true;
      }
    }
    prepare.store(p);
    return &kernel;
  }
};

}  // namespace nnhal::kernels::quantized_lstm

namespace nnhal {

template <>
struct Kernels<OperationType::QUANTIZED_LSTM> : kernels::quantized_lstm::Family {};
static_assert(kernels_cover_row<OperationType::QUANTIZED_LSTM>());

}  // namespace nnhal
