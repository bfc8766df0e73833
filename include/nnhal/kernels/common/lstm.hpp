#pragma once
/// \file
/// Shared by the float kernels of LSTM, UNIDIRECTIONAL_SEQUENCE_LSTM and
/// BIDIRECTIONAL_SEQUENCE_LSTM: one cell's shape checks, its weights packed into one float block,
/// the workspace plan, and the step loop over a sequence.
///
/// Numerics follow the reference (NNAPI LSTMCell::LSTMStep, computed in float for FLOAT16 too,
/// the states kept in float between steps and rounded to half once per output element):
///   gates = W_x x + W_aux aux + W_h h_prev (+ bias when there is no layer normalization)
///   i = sigmoid(norm_i(gates_i + p_i * c_prev))        (absent under CIFG)
///   f = sigmoid(norm_f(gates_f + p_f * c_prev))
///   g = act(norm_c(gates_c))
///   c = clip(f * c_prev + g * (CIFG ? 1 - f : i), cell_clip)
///   o = sigmoid(norm_o(gates_o + p_o * c))
///   h = clip(P (o * act(c)) + p_bias, proj_clip)  or  o * act(c) without projection
/// where norm_x(v) = layer_norm(v) * ln_x + bias_x with layer normalization, the identity
/// otherwise (the bias is then in `gates`); peephole terms only with peephole weights; a clip of
/// 0 means none. layer_norm(v) = (v - mean) / sqrt(var), var = mean(v^2) - mean^2 and
/// 1 / sqrt(1e-8) when var == 0 (the reference's MeanStddevNormalization).
///
/// The gate products go through the FLOAT32 FULLY_CONNECTED SIMD kernel as one matrix product
/// per step: the cell's input, auxiliary and recurrent weights of every gate are packed at
/// prepare into one [gates * cell, input + aux + output] matrix (rows i, f, c, o; i absent under
/// CIFG) with the gate biases beside it, and [x | aux | h_prev] is gathered per batch row. The
/// sums are therefore ordered differently from the reference's three accumulated products; the
/// usual summation-order bound holds. Constant weights are packed once into the prepared node;
/// weights that are runtime inputs are packed into the workspace at each execution. Every
/// buffer a step uses lies in the workspace: nothing is allocated while executing. With
/// reference kernels (KernelPrepare::reference) the same packed products run the scalar loop
/// dense::reference_f32 instead of the SIMD kernel.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <type_traits>

#include "nnhal/core/half.hpp"
#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/dense_f32.hpp"
#include "nnhal/simd/fully_connected_f32.hpp"

namespace nnhal::kernels::lstm_cell {

inline constexpr std::size_t kNone = static_cast<std::size_t>(-1);

/// Input positions of one cell's operands within an operation.
struct CellSlots {
  std::size_t input_weights;      ///< first of 4: to input, forget, cell, output gates
  std::size_t recurrent_weights;  ///< first of 4
  std::size_t peephole;           ///< first of 3: cell to input, forget, output
  std::size_t bias;               ///< first of 4 gate biases
  std::size_t projection;         ///< projection weights; the projection bias follows
  std::size_t layer_norm;         ///< first of 4 layer-norm weights, or kNone
  std::size_t aux_weights;        ///< first of 4 auxiliary weights, or kNone
  std::size_t output_state, cell_state;
};

/// LSTM and UNIDIRECTIONAL_SEQUENCE_LSTM cells (layer norm at 23 or 24 when present).
constexpr CellSlots lstm_slots(std::size_t layer_norm) noexcept {
  return {1, 5, 9, 12, 16, layer_norm, kNone, 18, 19};
}

/// One cell's sizes and optional parts.
struct CellShape {
  std::uint32_t input = 0, aux = 0, cell = 0, output = 0;  ///< aux = 0: no auxiliary weights
  bool cifg = false, peephole = false, layer_norm = false, projection = false, projection_bias = false;

  std::uint32_t gates() const noexcept { return cifg ? 3 : 4; }
  std::size_t k() const noexcept { return std::size_t{input} + aux + output; }
  bool operator==(const CellShape&) const = default;
};

/// Offsets (in floats) of a cell's packed block: the gate matrix, the gate biases, peepholes
/// (input, forget, output), layer-norm weights (one per gate), the projection and its bias.
struct PackedLayout {
  std::size_t matrix = 0, bias = 0, peephole = 0, layer_norm = 0, projection = 0, projection_bias = 0, total = 0;

  static PackedLayout of(const CellShape& s) noexcept {
    PackedLayout l;
    const std::size_t rows = std::size_t{s.gates()} * s.cell;
    l.bias = rows * s.k();
    l.peephole = l.bias + rows;
    l.layer_norm = l.peephole + (s.peephole ? 3 * std::size_t{s.cell} : 0);
    l.projection = l.layer_norm + (s.layer_norm ? rows : 0);
    l.projection_bias = l.projection + (s.projection ? std::size_t{s.output} * s.cell : 0);
    l.total = l.projection_bias + (s.projection_bias ? s.output : 0);
    return l;
  }
};

/// Floats of step scratch a cell needs for `batch` rows: [x | aux | h] rows, the gates, the
/// output and cell states, the hidden vector.
inline std::size_t scratch_floats(const CellShape& s, std::size_t batch) noexcept {
  return batch * (s.k() + std::size_t{s.gates()} * s.cell + s.output + 2 * std::size_t{s.cell});
}

/// Largest packed block or scratch planned (floats): 1 GiB.
inline constexpr std::size_t kMaxFloats = std::size_t{1} << 28;

inline bool is_constant(const RtOperand& op) noexcept {
  return op.lifetime == OperandLifeTime::CONSTANT_COPY || op.lifetime == OperandLifeTime::CONSTANT_REFERENCE;
}

/// Operand i when present (a value, not omitted), else nullptr.
inline const RtOperand* optional(const NodeIO& io, std::size_t i) noexcept {
  return i != kNone && io.has_input(i) ? &io.input(i) : nullptr;
}

inline Status check_dims(const RtOperand& op, std::size_t i, std::uint32_t d0, std::uint32_t d1, const char* name) {
  const Dims& d = op.dims;
  if (!op.rank_known || d.rank() != 2 || d[0] != d0 || d[1] != d1)
    return NNHAL_INVALID("%s input %zu must have shape [%" PRIu32 ", %" PRIu32 "]", name, i, d0,
                         d1);
  return {};
}

inline Status check_dims(const RtOperand& op, std::size_t i, std::uint32_t d0, const char* name) {
  if (!op.rank_known || op.dims.rank() != 1 || op.dims[0] != d0)
    return NNHAL_INVALID("%s input %zu must have shape [%" PRIu32 "]", name, i, d0);
  return {};
}

/// Reads a cell's sizes and optional parts from its operands and checks every shape, as the
/// reference's LSTMCell::CheckInputTensorDimensions does (plus: without projection the output
/// size must equal the cell count, which the reference copies without checking). `input` is the
/// size of the cell's input rows; `aux` that of the auxiliary input rows when the cell has
/// auxiliary weights (0 otherwise).
inline Expected<CellShape> cell_shape(const NodeIO& io, const CellSlots& s, std::uint32_t input, bool with_aux,
                                      std::uint32_t aux, const char* name) {
  CellShape c;
  const RtOperand& to_output = io.input(s.input_weights + 3);
  const RtOperand& rec_output = io.input(s.recurrent_weights + 3);
  if (!to_output.rank_known || to_output.dims.rank() != 2 || !rec_output.rank_known || rec_output.dims.rank() != 2)
    return NNHAL_INVALID("%s input %zu and %zu must be 2-D weights", name, s.input_weights + 3,
                         s.recurrent_weights + 3);
  c.input = input;
  c.cell = to_output.dims[0];
  c.output = rec_output.dims[1];
  constexpr std::uint32_t kMaxSize = std::uint32_t{1} << 26;  // keeps the size products within 64 bits
  if (c.cell > kMaxSize || c.output > kMaxSize || input > kMaxSize || aux > kMaxSize)
    return NNHAL_INVALID("%s: sizes above %" PRIu32 " are not supported", name, kMaxSize);
  if (c.cell == 0 || c.output == 0 || input == 0)
    return NNHAL_INVALID("%s: input size %" PRIu32 ", cell count %" PRIu32
                         " and output size %" PRIu32 " must be positive",
                         name, input, c.cell, c.output);
  const RtOperand* ii = optional(io, s.input_weights);
  const RtOperand* ri = optional(io, s.recurrent_weights);
  const RtOperand* ib = optional(io, s.bias);
  c.cifg = ii == nullptr;
  if ((ri == nullptr) != c.cifg || (ib == nullptr) != c.cifg)
    return NNHAL_INVALID("%s: inputs %zu, %zu and %zu (input gate) must be all present or all omitted", name,
                         s.input_weights, s.recurrent_weights, s.bias);
  for (std::uint32_t g = c.cifg ? 1 : 0; g < 4; ++g) {
    NNHAL_TRY(check_dims(io.input(s.input_weights + g), s.input_weights + g, c.cell, input, name));
    NNHAL_TRY(check_dims(io.input(s.recurrent_weights + g), s.recurrent_weights + g, c.cell, c.output, name));
    NNHAL_TRY(check_dims(io.input(s.bias + g), s.bias + g, c.cell, name));
  }
  const RtOperand* pi = optional(io, s.peephole);
  const RtOperand* pf = optional(io, s.peephole + 1);
  const RtOperand* po = optional(io, s.peephole + 2);
  c.peephole = po != nullptr;
  // Under CIFG a cell-to-input peephole is tolerated and ignored, as by the reference.
  if ((pf != nullptr) != c.peephole || (!c.cifg && (pi != nullptr) != c.peephole))
    return NNHAL_INVALID("%s: peephole inputs %zu..%zu must be all present or all omitted", name, s.peephole,
                         s.peephole + 2);
  if (c.peephole)
    for (std::uint32_t g = c.cifg ? 1 : 0; g < 3; ++g)
      NNHAL_TRY(check_dims(io.input(s.peephole + g), s.peephole + g, c.cell, name));
  const RtOperand* pw = optional(io, s.projection);
  const RtOperand* pb = optional(io, s.projection + 1);
  c.projection = pw != nullptr;
  c.projection_bias = pb != nullptr;
  if (c.projection_bias && !c.projection)
    return NNHAL_INVALID("%s input %zu (projection bias) is present without input %zu (projection weights)", name,
                         s.projection + 1, s.projection);
  if (c.projection) NNHAL_TRY(check_dims(*pw, s.projection, c.output, c.cell, name));
  if (c.projection_bias) NNHAL_TRY(check_dims(*pb, s.projection + 1, c.output, name));
  if (!c.projection && c.output != c.cell)
    return NNHAL_INVALID("%s: without projection the output size %" PRIu32
                         " must equal the cell count %" PRIu32,
                         name, c.output, c.cell);
  if (s.layer_norm != kNone) {
    // The reference decides layer normalization by the output gate's weights.
    c.layer_norm = optional(io, s.layer_norm + 3) != nullptr;
    for (std::size_t g = 0; g < 4; ++g) {
      const RtOperand* ln = optional(io, s.layer_norm + g);
      const bool expected = c.layer_norm && !(g == 0 && c.cifg);
      if ((ln != nullptr) != expected)
        return NNHAL_INVALID("%s input %zu (layer-norm weights) must be %s", name, s.layer_norm + g,
                             expected ? "present" : "omitted");
      if (ln != nullptr) NNHAL_TRY(check_dims(*ln, s.layer_norm + g, c.cell, name));
    }
  }
  if (with_aux) {
    c.aux = aux;
    if (aux == 0) return NNHAL_INVALID("%s: the auxiliary input size must be positive", name);
    for (std::size_t g = 0; g < 4; ++g) {
      const RtOperand* w = optional(io, s.aux_weights + g);
      const bool expected = !(g == 0 && c.cifg);
      if ((w != nullptr) != expected)
        return NNHAL_INVALID("%s input %zu (auxiliary weights) must be %s", name, s.aux_weights + g,
                             expected ? "present" : "omitted");
      if (w != nullptr) NNHAL_TRY(check_dims(*w, s.aux_weights + g, c.cell, aux, name));
    }
  }
  return c;
}

/// The largest cell the operands allow when some optional operand's shape is unknown at
/// prepare (a subgraph input the request may still omit): every optional part present. Planned
/// with it, the workspace fits whichever parts the execution brings.
inline Expected<CellShape> upper_bound_shape(const NodeIO& io, const CellSlots& s, std::uint32_t input, bool with_aux,
                                             std::uint32_t aux, const char* name) {
  const RtOperand& to_output = io.input(s.input_weights + 3);
  const RtOperand& rec_output = io.input(s.recurrent_weights + 3);
  if (!to_output.shape_known() || to_output.dims.rank() != 2 || !rec_output.shape_known() ||
      rec_output.dims.rank() != 2)
    return NNHAL_FAILURE("%s: the weight shapes are unknown at prepare", name);
  CellShape c;
  c.input = input, c.aux = with_aux ? aux : 0, c.cell = to_output.dims[0], c.output = rec_output.dims[1];
  constexpr std::uint32_t kMaxSize = std::uint32_t{1} << 26;
  if (c.input == 0 || c.cell == 0 || c.output == 0 || c.input > kMaxSize || c.cell > kMaxSize || c.output > kMaxSize ||
      c.aux > kMaxSize)
    return NNHAL_FAILURE("%s: sizes unknown or too large at prepare", name);
  c.peephole = c.projection = c.projection_bias = true;
  c.layer_norm = s.layer_norm != kNone;
  return c;
}

/// Element i of a float or half tensor, as float.
template <class E>
inline float load(const E* p, std::size_t i) noexcept {
  return static_cast<float>(p[i]);
}

template <class E>
inline E store_as(float v) noexcept {
  if constexpr (std::is_same_v<E, float>) {
    return v;
  } else {
    return E(v);
  }
}

template <class E>
inline const E* data_of(const NodeIO& io, std::size_t i) noexcept {
  return reinterpret_cast<const E*>(io.input(i).data);
}

/// Packs a cell's weights into `dst` (PackedLayout::of(s).total floats), converted to float.
template <class E>
inline void pack(const NodeIO& io, const CellSlots& slots, const CellShape& s, float* dst) noexcept {
  const PackedLayout l = PackedLayout::of(s);
  const std::size_t k = s.k();
  std::uint32_t row = 0;
  for (std::uint32_t g = s.cifg ? 1 : 0; g < 4; ++g, ++row) {
    const E* wx = data_of<E>(io, slots.input_weights + g);
    const E* wh = data_of<E>(io, slots.recurrent_weights + g);
    const E* wa = s.aux != 0 ? data_of<E>(io, slots.aux_weights + g) : nullptr;
    const E* b = data_of<E>(io, slots.bias + g);
    for (std::uint32_t u = 0; u < s.cell; ++u) {
      float* r = dst + l.matrix + (std::size_t{row} * s.cell + u) * k;
      for (std::uint32_t j = 0; j < s.input; ++j) r[j] = load(wx, std::size_t{u} * s.input + j);
      for (std::uint32_t j = 0; j < s.aux; ++j) r[s.input + j] = load(wa, std::size_t{u} * s.aux + j);
      for (std::uint32_t j = 0; j < s.output; ++j) r[s.input + s.aux + j] = load(wh, std::size_t{u} * s.output + j);
      dst[l.bias + std::size_t{row} * s.cell + u] = load(b, u);
      if (s.layer_norm) dst[l.layer_norm + std::size_t{row} * s.cell + u] = load(data_of<E>(io, slots.layer_norm + g), u);
    }
  }
  if (s.peephole)
    for (std::uint32_t g = s.cifg ? 1 : 0; g < 3; ++g)
      for (std::uint32_t u = 0; u < s.cell; ++u)
        dst[l.peephole + std::size_t{g} * s.cell + u] = load(data_of<E>(io, slots.peephole + g), u);
  if (s.projection)
    for (std::size_t j = 0; j < std::size_t{s.output} * s.cell; ++j)
      dst[l.projection + j] = load(data_of<E>(io, slots.projection), j);
  if (s.projection_bias)
    for (std::uint32_t j = 0; j < s.output; ++j) dst[l.projection_bias + j] = load(data_of<E>(io, slots.projection + 1), j);
}

/// True when every tensor of the cell that `pack` reads is a constant with its bytes bound.
inline bool cell_constant(const NodeIO& io, const CellSlots& s, const CellShape& c) noexcept {
  auto ok = [&](std::size_t i) {
    const RtOperand& op = io.input(i);
    return is_constant(op) && op.data != nullptr && op.length >= op.required_bytes();
  };
  for (std::uint32_t g = c.cifg ? 1 : 0; g < 4; ++g) {
    if (!ok(s.input_weights + g) || !ok(s.recurrent_weights + g) || !ok(s.bias + g)) return false;
    if (c.aux != 0 && !ok(s.aux_weights + g)) return false;
    if (c.layer_norm && !ok(s.layer_norm + g)) return false;
  }
  if (c.peephole)
    for (std::uint32_t g = c.cifg ? 1 : 0; g < 3; ++g)
      if (!ok(s.peephole + g)) return false;
  if (c.projection && !ok(s.projection)) return false;
  if (c.projection_bias && !ok(s.projection + 1)) return false;
  return true;
}

/// The fused activation of the cell (input 20 of LSTM): NONE, RELU, RELU6, TANH or SIGMOID.
enum class Act : std::int32_t { None = 0, Relu = 1, Relu6 = 3, Tanh = 4, Sigmoid = 6 };

inline bool valid_activation(std::int32_t a) noexcept { return a == 0 || a == 1 || a == 3 || a == 4 || a == 6; }

inline float sigmoid(float x) noexcept { return 1.0f / (1.0f + std::exp(-x)); }

inline float activate(Act a, float x) noexcept {
  switch (a) {
    case Act::Relu: return x < 0.0f ? 0.0f : x;
    case Act::Relu6: return x < 0.0f ? 0.0f : (x > 6.0f ? 6.0f : x);
    case Act::Tanh: return std::tanh(x);
    case Act::Sigmoid: return sigmoid(x);
    case Act::None: break;
  }
  return x;
}

/// The reference's ClipVector element: into [-limit, limit].
inline float clip(float v, float limit) noexcept {
  const float r = limit < v ? limit : v;
  return -limit > r ? -limit : r;
}

/// In place: (v - mean) / stddev, then * weights + bias (the reference's layer normalization).
inline void layer_norm(float* v, std::size_t n, const float* weights, const float* bias) noexcept {
  float sum = 0.0f, sum_sq = 0.0f;
  for (std::size_t j = 0; j < n; ++j) sum += v[j], sum_sq += v[j] * v[j];
  const float mean = sum / static_cast<float>(n);
  const float variance = sum_sq / static_cast<float>(n) - mean * mean;
  const float inv = variance == 0.0f ? 1.0f / std::sqrt(1e-8f) : 1.0f / std::sqrt(variance);
  for (std::size_t j = 0; j < n; ++j) v[j] = (v[j] - mean) * inv * weights[j] + bias[j];
}

/// The scalar parameters shared by the LSTM operations.
struct Scalars {
  Act activation = Act::None;
  float cell_clip = 0.0f, proj_clip = 0.0f;
};

/// Reads activation and clips at `first` (activation), first + 1, first + 2; the clips are
/// FLOAT32 or FLOAT16 scalars as the tensors.
template <class E>
inline Expected<Scalars> read_scalars(const NodeIO& io, std::size_t first, const char* name) {
  Scalars s;
  const std::int32_t a = io.scalar<OperandType::INT32>(first);
  if (!valid_activation(a))
    return NNHAL_INVALID("%s activation %" PRId32 " is not one of NONE, RELU, RELU6, TANH, SIGMOID",
                         name, a);
  s.activation = static_cast<Act>(a);
  if constexpr (std::is_same_v<E, float>) {
    s.cell_clip = io.scalar<OperandType::FLOAT32>(first + 1);
    s.proj_clip = io.scalar<OperandType::FLOAT32>(first + 2);
  } else {
    s.cell_clip = static_cast<float>(io.scalar<OperandType::FLOAT16>(first + 1));
    s.proj_clip = static_cast<float>(io.scalar<OperandType::FLOAT16>(first + 2));
  }
  if (!(s.cell_clip >= 0.0f) || !(s.proj_clip >= 0.0f))
    return NNHAL_INVALID("%s cell clip %g and projection clip %g must be >= 0", name,
                         static_cast<double>(s.cell_clip), static_cast<double>(s.proj_clip));
  return s;
}

/// read_scalars for the clips' type (FLOAT16 with half tensors): shape inference checks them
/// too, so constant scalars that are wrong are refused at prepare.
inline Status check_scalars(const NodeIO& io, std::size_t first, const char* name) {
  if (io.input(first + 1).type == OperandType::FLOAT16) {
    auto s = read_scalars<Half>(io, first, name);
    if (!s) return std::move(s.error());
    return {};
  }
  auto s = read_scalars<float>(io, first, name);
  if (!s) return std::move(s.error());
  return {};
}

/// Where a sequence's rows are: row (t, b) of a [time, batch, n] (time-major) or [batch, time,
/// n] tensor starts at ((t * batch + b) or (b * time + t)) * stride + offset.
struct Rows {
  std::size_t time = 1, batch = 1, stride = 0, offset = 0;
  bool time_major = true;
  std::size_t at(std::size_t t, std::size_t b) const noexcept {
    return (time_major ? t * batch + b : b * time + t) * stride + offset;
  }
};

/// One cell run over a sequence.
template <class E>
struct Sequence {
  const E* x = nullptr;
  Rows x_rows;
  const E* aux = nullptr;  ///< with auxiliary weights only
  Rows aux_rows;
  E* out = nullptr;
  Rows out_rows;
  const E* output_state_in = nullptr;
  const E* cell_state_in = nullptr;
  E* output_state_out = nullptr;  ///< may be nullptr
  E* cell_state_out = nullptr;    ///< may be nullptr
  E* scratch_out = nullptr;       ///< LSTM's scratch-buffer output; may be nullptr
  bool forward = true;
};

/// Runs a cell over `seq` with its packed block `packed` and `scratch` (scratch_floats(s,
/// batch) floats).
template <class E>
void run(const simd::FullyConnectedF32& fc, const CellShape& s, const Scalars& p, const float* packed, float* scratch,
         const Sequence<E>& seq) noexcept {
  const PackedLayout l = PackedLayout::of(s);
  const std::size_t batch = seq.x_rows.batch, time = seq.x_rows.time;
  const std::size_t k = s.k(), cell = s.cell, out_n = s.output, rows = std::size_t{s.gates()} * cell;
  float* xin = scratch;
  float* gates = xin + batch * k;
  float* h = gates + batch * rows;
  float* c = h + batch * out_n;
  float* hidden = c + batch * cell;
  for (std::size_t j = 0; j < batch * out_n; ++j) h[j] = load(seq.output_state_in, j);
  for (std::size_t j = 0; j < batch * cell; ++j) c[j] = load(seq.cell_state_in, j);
  const float* peep = packed + l.peephole;  // rows input, forget, output
  const float* ln = packed + l.layer_norm;
  const float* bias = packed + l.bias;
  const std::size_t gi = 0, gf = s.cifg ? 0 : cell, gc = gf + cell, go = gc + cell;  // offsets within a row

  for (std::size_t step = 0; step < time; ++step) {
    const std::size_t t = seq.forward ? step : time - 1 - step;
    for (std::size_t b = 0; b < batch; ++b) {
      float* r = xin + b * k;
      const E* xr = seq.x + seq.x_rows.at(t, b);
      for (std::size_t j = 0; j < s.input; ++j) r[j] = load(xr, j);
      if (s.aux != 0) {
        const E* ar = seq.aux + seq.aux_rows.at(t, b);
        for (std::size_t j = 0; j < s.aux; ++j) r[s.input + j] = load(ar, j);
      }
      std::memcpy(r + s.input + s.aux, h + b * out_n, out_n * sizeof(float));
    }
    fc.run(xin, packed + l.matrix, s.layer_norm ? nullptr : bias, gates, batch, k, rows,
           -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::infinity());

    for (std::size_t b = 0; b < batch; ++b) {
      float* gr = gates + b * rows;
      float* cb = c + b * cell;
      float* hid = hidden + b * cell;
      if (!s.cifg) {
        if (s.peephole)
          for (std::size_t j = 0; j < cell; ++j) gr[gi + j] += peep[j] * cb[j];
        if (s.layer_norm) layer_norm(gr + gi, cell, ln + gi, bias + gi);
        for (std::size_t j = 0; j < cell; ++j) gr[gi + j] = sigmoid(gr[gi + j]);
      }
      if (s.peephole)
        for (std::size_t j = 0; j < cell; ++j) gr[gf + j] += peep[cell + j] * cb[j];
      if (s.layer_norm) {
        layer_norm(gr + gf, cell, ln + gf, bias + gf);
        layer_norm(gr + gc, cell, ln + gc, bias + gc);
      }
      for (std::size_t j = 0; j < cell; ++j) {
        const float f = sigmoid(gr[gf + j]);
        const float g = activate(p.activation, gr[gc + j]);
        gr[gf + j] = f, gr[gc + j] = g;
        float cn = f * cb[j];
        cn += g * (s.cifg ? 1.0f - f : gr[gi + j]);
        cb[j] = p.cell_clip > 0.0f ? clip(cn, p.cell_clip) : cn;
      }
      if (s.peephole)
        for (std::size_t j = 0; j < cell; ++j) gr[go + j] += peep[2 * cell + j] * cb[j];
      if (s.layer_norm) layer_norm(gr + go, cell, ln + go, bias + go);
      for (std::size_t j = 0; j < cell; ++j) {
        gr[go + j] = sigmoid(gr[go + j]);
        hid[j] = gr[go + j] * activate(p.activation, cb[j]);
      }
    }

    if (s.projection) {
      fc.run(hidden, packed + l.projection, s.projection_bias ? packed + l.projection_bias : nullptr, h, batch, cell,
             out_n, -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::infinity());
      if (p.proj_clip > 0.0f)
        for (std::size_t j = 0; j < batch * out_n; ++j) h[j] = clip(h[j], p.proj_clip);
    } else {
      std::memcpy(h, hidden, batch * cell * sizeof(float));
    }
    for (std::size_t b = 0; b < batch; ++b) {
      E* o = seq.out + seq.out_rows.at(t, b);
      for (std::size_t j = 0; j < out_n; ++j) o[j] = store_as<E>(h[b * out_n + j]);
    }
  }

  if (seq.output_state_out != nullptr)
    for (std::size_t j = 0; j < batch * out_n; ++j) seq.output_state_out[j] = store_as<E>(h[j]);
  if (seq.cell_state_out != nullptr)
    for (std::size_t j = 0; j < batch * cell; ++j) seq.cell_state_out[j] = store_as<E>(c[j]);
  if (seq.scratch_out != nullptr) {
    // The reference leaves its gate buffers there, gate-major ([gate][batch][cell]); the values
    // are not specified (tests ignore this output): the gate activations of the last step.
    for (std::size_t g = 0; g < s.gates(); ++g)
      for (std::size_t b = 0; b < batch; ++b)
        for (std::size_t j = 0; j < cell; ++j)
          seq.scratch_out[(g * batch + b) * cell + j] = store_as<E>(gates[b * rows + g * cell + j]);
  }
}

/// The plan of one cell, kept in the node's parameters.
struct CellPlan {
  CellShape shape;
  bool exact = false;  ///< `shape` is the cell's (else an upper bound)
  bool packed_at_prepare = false;
  std::uint32_t packed_offset = 0;  ///< in floats, within NodeIO::packed() (prepare) or the workspace
};

/// A node's plan (its parameters): the SIMD table, each cell's shape and where its packed block
/// lives, and the workspace: the per-run packed blocks, then the step scratch.
struct NodePlan {
  const simd::FullyConnectedF32* fc = nullptr;
  CellPlan cells[2];
  std::uint64_t workspace_floats = 0, scratch_offset = 0;
  bool planned = false;
};

/// The dense products' table: the SIMD family's, or its scalar reference loop when prepare asks
/// for reference kernels (the packed layout stays: it only concatenates the weights, converted
/// to float, so the loop sums x, aux and h products in the order of that row).
inline const simd::FullyConnectedF32* fc_table(const KernelPrepare& prepare) noexcept {
  return prepare.reference ? &dense::reference_f32_table() : &simd::fully_connected_f32_table();
}

/// Plans the node's cells (shapes known at prepare), packing those whose weights are constants
/// and sizing the workspace for batches of up to `batch_bound` rows. A node whose shapes are
/// unknown at prepare stays unplanned and fails at execution rather than allocate.
template <class E>
inline NodePlan plan(const NodeIO& io, KernelPrepare& prepare, const CellSlots* slots, const CellShape* shapes,
                     std::size_t n, std::size_t batch_bound, bool exact) {
  NodePlan np;
  np.fc = fc_table(prepare);
  std::size_t packed_total = 0, ws = 0, scratch = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const PackedLayout l = PackedLayout::of(shapes[i]);
    const std::size_t sc = scratch_floats(shapes[i], batch_bound);
    if (l.total > kMaxFloats || sc > kMaxFloats) return np;
    np.cells[i].shape = shapes[i];
    np.cells[i].exact = exact;
    np.cells[i].packed_at_prepare = exact && cell_constant(io, slots[i], shapes[i]);
    std::size_t& at = np.cells[i].packed_at_prepare ? packed_total : ws;
    np.cells[i].packed_offset = static_cast<std::uint32_t>(at);
    at += l.total;
    scratch = scratch < sc ? sc : scratch;
  }
  np.scratch_offset = ws;
  np.workspace_floats = ws + scratch;
  if (packed_total != 0) {
    if (std::byte* dst = prepare.pack(packed_total * sizeof(float)); dst != nullptr)
      for (std::size_t i = 0; i < n; ++i)
        if (np.cells[i].packed_at_prepare)
          pack<E>(io, slots[i], shapes[i], reinterpret_cast<float*>(dst) + np.cells[i].packed_offset);
  }
  prepare.workspace_bytes = static_cast<std::size_t>(np.workspace_floats * sizeof(float));
  np.planned = true;
  return np;
}

/// Cell i's packed block at execution: the one packed at prepare, or packed now into the
/// workspace. Fails when the shapes differ from those planned.
template <class E>
inline Expected<const float*> cell_block(const NodeIO& io, const NodePlan& np, std::size_t i, const CellSlots& slots,
                                         const CellShape& shape, const char* name) {
  if (!np.planned)
    return NNHAL_FAILURE("%s: no workspace was planned (shapes unknown or too large at prepare)", name);
  const CellPlan& cp = np.cells[i];
  if (cp.packed_at_prepare ? !(shape == cp.shape)
                           : PackedLayout::of(shape).total > PackedLayout::of(cp.shape).total)
    return NNHAL_FAILURE("%s: the weight shapes differ from those planned at prepare", name);
  if (cp.packed_at_prepare) {
    if (io.packed() == nullptr) return NNHAL_FAILURE("%s: the weights were not packed at prepare", name);
    return reinterpret_cast<const float*>(io.packed()) + np.cells[i].packed_offset;
  }
  if (io.workspace() == nullptr) return NNHAL_FAILURE("%s: no workspace", name);
  float* dst = reinterpret_cast<float*>(io.workspace()) + np.cells[i].packed_offset;
  pack<E>(io, slots, shape, dst);
  return static_cast<const float*>(dst);
}

/// The step scratch for `batch` rows of the cells `shapes`, checked against the plan.
inline Expected<float*> step_scratch(const NodeIO& io, const NodePlan& np, const CellShape* shapes, std::size_t n,
                                     std::size_t batch, const char* name) {
  std::size_t need = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t sc = scratch_floats(shapes[i], batch);
    need = need < sc ? sc : need;
  }
  if (need == 0) return static_cast<float*>(nullptr);
  if (io.workspace() == nullptr || need > np.workspace_floats - np.scratch_offset)
    return NNHAL_FAILURE("%s: a batch of %zu needs more scratch than planned at prepare", name, batch);
  return reinterpret_cast<float*>(io.workspace()) + np.scratch_offset;
}

/// Sets output `i`'s shape.
inline void set_shape(const NodeIO& io, std::size_t i, std::initializer_list<std::uint32_t> dims) {
  RtOperand& o = io.output(i);
  o.dims = Dims(dims);
  o.rank_known = true;
}

}  // namespace nnhal::kernels::lstm_cell
