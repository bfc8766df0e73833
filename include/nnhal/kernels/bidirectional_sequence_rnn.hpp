#pragma once
/// \file
/// BIDIRECTIONAL_SEQUENCE_RNN kernels (the row: nnhal/ops/bidirectional_sequence_rnn.hpp): a
/// forward and a backward basic RNN cell (kernels/common/rnn.hpp) over a 3-D input sequence.
///
/// As the reference (NNAPI BidirectionalSequenceRNN.cpp):
///  - outputs: fw output, bw output (absent when merge_outputs: the fw output then holds
///    [fw_units + bw_units] per row, fw first), then (1.3) the fw and bw final hidden states;
///    merged takes 1 or 3 outputs, unmerged 2 or 4;
///  - linking modes: no auxiliary tensors; "parallel" linking, an auxiliary input without
///    auxiliary weights, which the backward cell reads instead of the input (its weights are
///    [bw_units, aux_size]); "cross" linking, the auxiliary input and both auxiliary weights,
///    whose product is added in both cells. Any other combination is INVALID_ARGUMENT;
///  - the auxiliary input has the input's first two dimensions.
/// The reference walks the auxiliary rows with the input's row length (it reads the wrong
/// elements when the auxiliary size differs); nnhal uses the auxiliary size. The FLOAT32
/// kernel's SIMD products need batch * max(fw_units, bw_units) floats of workspace, planned when
/// the hidden states' shapes are known at prepare; otherwise it runs the plain loop.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/rnn.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/bidirectional_sequence_rnn.hpp"

namespace nnhal::kernels::bidirectional_sequence_rnn {

inline constexpr const char* kName = "BIDIRECTIONAL_SEQUENCE_RNN";
inline constexpr std::size_t kAux = 9, kFwAuxWeights = 10, kBwAuxWeights = 11;

enum class Linking { None, Parallel, Cross };

/// The sizes of a node after its shape checks.
struct Shape {
  std::uint32_t max_time = 0, batch = 0, input_size = 0, aux_size = 0, fw_units = 0, bw_units = 0;
  bool time_major = false, merge = false, states = false;
  Linking linking = Linking::None;
  Dims seq(std::uint32_t units) const noexcept {
    return time_major ? Dims{max_time, batch, units} : Dims{batch, max_time, units};
  }
  /// The expected shape of each output, in order.
  std::size_t outputs(Dims* out) const noexcept {
    std::size_t n = 0;
    out[n++] = seq(merge ? fw_units + bw_units : fw_units);
    if (!merge) out[n++] = seq(bw_units);
    if (states) {
      out[n++] = Dims{batch, fw_units};
      out[n++] = Dims{batch, bw_units};
    }
    return n;
  }
};

/// Checks one cell's weights (`w` = first of weights, recurrent, bias, hidden state) against
/// its input size; returns its number of units.
inline Expected<std::uint32_t> check_cell(const NodeIO& io, std::size_t w, std::uint32_t input_size,
                                          std::uint32_t batch) {
  for (std::size_t i : {w, w + 1, w + 3}) NNHAL_TRY(rnn_common::check_rank(io, i, 2, kName));
  NNHAL_TRY(rnn_common::check_rank(io, w + 2, 1, kName));
  const std::uint32_t units = io.input(w).dims[0];
  if (units == 0) return NNHAL_INVALID("%s: input %zu (weights) has no units", kName, w);
  NNHAL_TRY(rnn_common::check_dim(io, w, 1, input_size, kName));
  NNHAL_TRY(rnn_common::check_dim(io, w + 1, 0, units, kName));
  NNHAL_TRY(rnn_common::check_dim(io, w + 1, 1, units, kName));
  NNHAL_TRY(rnn_common::check_dim(io, w + 2, 0, units, kName));
  NNHAL_TRY(rnn_common::check_dim(io, w + 3, 0, batch, kName));
  NNHAL_TRY(rnn_common::check_dim(io, w + 3, 1, units, kName));
  return units;
}

inline Expected<Shape> check(const NodeIO& io) {
  NNHAL_TRY(rnn_common::require_inputs(io, {0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 13, 14}, kName));
  NNHAL_TRY(rnn_common::activation(io, 12, kName));
  Shape s;
  s.time_major = io.scalar<OperandType::BOOL>(13) != 0;
  s.merge = io.scalar<OperandType::BOOL>(14) != 0;
  const std::size_t n = io.output_count();
  if (s.merge ? (n != 1 && n != 3) : (n != 2 && n != 4))
    return NNHAL_INVALID("%s: %zu outputs with merge_outputs %s (expected %s)", kName, n, s.merge ? "true" : "false",
                         s.merge ? "1 or 3" : "2 or 4");
  s.states = n >= 3;
  const bool aux = io.has_input(kAux), fw_aux = io.has_input(kFwAuxWeights), bw_aux = io.has_input(kBwAuxWeights);
  if (!aux && !fw_aux && !bw_aux)
    s.linking = Linking::None;
  else if (aux && !fw_aux && !bw_aux)
    s.linking = Linking::Parallel;
  else if (aux && fw_aux && bw_aux)
    s.linking = Linking::Cross;
  else
    return NNHAL_INVALID("%s: the auxiliary input and weights (inputs 9-11) must be all omitted, the input alone, "
                         "or all given", kName);
  NNHAL_TRY(rnn_common::check_rank(io, 0, 3, kName));
  const Dims& in = io.input(0).dims;
  s.max_time = s.time_major ? in[0] : in[1];
  s.batch = s.time_major ? in[1] : in[0];
  s.input_size = in[2];
  if (s.linking != Linking::None) {
    NNHAL_TRY(rnn_common::check_rank(io, kAux, 3, kName));
    NNHAL_TRY(rnn_common::check_dim(io, kAux, 0, in[0], kName));
    NNHAL_TRY(rnn_common::check_dim(io, kAux, 1, in[1], kName));
    s.aux_size = io.input(kAux).dims[2];
  }
  auto fw = check_cell(io, 1, s.input_size, s.batch);
  if (!fw) return std::move(fw.error());
  auto bw = check_cell(io, 5, s.linking == Linking::Parallel ? s.aux_size : s.input_size, s.batch);
  if (!bw) return std::move(bw.error());
  s.fw_units = *fw;
  s.bw_units = *bw;
  if (std::uint64_t{s.fw_units} + s.bw_units > UINT32_MAX)
    return NNHAL_INVALID("%s: fw_units + bw_units overflows", kName);
  if (s.linking == Linking::Cross) {
    for (std::size_t i : {kFwAuxWeights, kBwAuxWeights}) {
      NNHAL_TRY(rnn_common::check_rank(io, i, 2, kName));
      NNHAL_TRY(rnn_common::check_dim(io, i, 0, i == kFwAuxWeights ? s.fw_units : s.bw_units, kName));
      NNHAL_TRY(rnn_common::check_dim(io, i, 1, s.aux_size, kName));
    }
  }
  return s;
}

inline Status infer(const NodeIO& io) {
  auto s = check(io);
  if (!s) return std::move(s.error());
  Dims want[4];
  const std::size_t n = s->outputs(want);
  for (std::size_t i = 0; i < n; ++i) NNHAL_TRY(set_output(io, i, want[i]));
  return {};
}

template <OperandType T>
Status kernel(const NodeIO& io) {
  using E = element_t<T>;
  auto se = check(io);
  if (!se) return std::move(se.error());
  const Shape& s = *se;
  Dims want[4];
  const std::size_t n = s.outputs(want);
  for (std::size_t i = 0; i < n; ++i)
    if (io.output(i).dims != want[i]) return NNHAL_FAILURE("%s output shapes do not match its inputs", kName);
  const FloatRange act = *rnn_common::activation(io, 12, kName);
  float* scratch = nullptr;
  const simd::FullyConnectedF32* simd = nullptr;
  if constexpr (T == OperandType::TENSOR_FLOAT32) {
    simd = io.params<rnn_common::SeqParams>().simd;
    scratch = rnn_common::scratch(io, std::size_t{s.batch} * std::max(s.fw_units, s.bw_units));
  }
  const E* aux = s.linking != Linking::None ? io.in_data<T>(kAux) : nullptr;
  for (int dir = 0; dir < 2; ++dir) {
    const bool bw = dir == 1;
    const std::size_t w = bw ? 5 : 1;
    rnn_common::Direction<E> d;
    d.max_time = s.max_time;
    d.batch = s.batch;
    d.time_major = s.time_major;
    d.backward = bw;
    d.input = bw && s.linking == Linking::Parallel ? aux : io.in_data<T>(0);
    d.input_size = bw && s.linking == Linking::Parallel ? s.aux_size : s.input_size;
    if (s.linking == Linking::Cross) {
      d.aux = aux;
      d.aux_size = s.aux_size;
      d.aux_weights = io.in_data<T>(bw ? kBwAuxWeights : kFwAuxWeights);
    }
    d.weights = io.in_data<T>(w);
    d.recurrent = io.in_data<T>(w + 1);
    d.bias = io.in_data<T>(w + 2);
    d.hidden_in = io.in_data<T>(w + 3);
    d.units = bw ? s.bw_units : s.fw_units;
    d.out_stride = s.merge ? s.fw_units + s.bw_units : d.units;
    d.out_offset = bw && s.merge ? s.fw_units : 0;
    d.output = io.out_data<T>(bw && !s.merge ? 1 : 0);
    if (s.states) d.hidden_out = io.out_data<T>(n - 2 + static_cast<std::size_t>(dir));
    d.act = act;
    rnn_common::run(d, simd, scratch);
  }
  return {};
}

/// BIDIRECTIONAL_SEQUENCE_RNN's kernels, keyed by the input type.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16};
  static Status infer(const NodeIO& io) { return bidirectional_sequence_rnn::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO& io, KernelPrepare& prepare) {
    if constexpr (T == OperandType::TENSOR_FLOAT32) {
      rnn_common::plan_scratch(io, prepare, {4, 8});
    }
    return &kernel<T>;
  }
};

}  // namespace nnhal::kernels::bidirectional_sequence_rnn

namespace nnhal {

template <>
struct Kernels<OperationType::BIDIRECTIONAL_SEQUENCE_RNN> : kernels::bidirectional_sequence_rnn::Family {};
static_assert(kernels_cover_row<OperationType::BIDIRECTIONAL_SEQUENCE_RNN>());

}  // namespace nnhal
