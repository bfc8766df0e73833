#pragma once
/// \file
/// BIDIRECTIONAL_SEQUENCE_LSTM kernels (the row: nnhal/ops/bidirectional_sequence_lstm.hpp): a
/// forward and a backward LSTM cell over a 3-D input sequence, FLOAT32 and FLOAT16 (computed in
/// float). Each cell is LSTM's (nnhal/kernels/common/lstm.hpp); the backward cell walks the
/// sequence from its end.
///
/// Auxiliary input (39), as the reference decides it: with auxiliary weights ("cross linking")
/// both cells also read the auxiliary input through their auxiliary weights; without them
/// ("parallel linking") the backward cell reads the auxiliary input instead of the input. The
/// reference reads input_size elements per auxiliary row with cross linking, so the auxiliary
/// input must then have the input's size. merge_outputs (51) puts the backward output beside
/// the forward one along the last dimension of output 0; the state outputs (1.3) follow the
/// sequence outputs. Differences from the reference, on models it mishandles: each direction's
/// optional parts (CIFG, peephole, projection, layer norm) are its own (the reference applies
/// the backward cell's flags to both cells); the output count must fit merge_outputs.

#include <array>
#include <cstddef>
#include <cstdint>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/lstm.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/bidirectional_sequence_lstm.hpp"

namespace nnhal::kernels::bidirectional_sequence_lstm {

inline constexpr const char* kName = "BIDIRECTIONAL_SEQUENCE_LSTM";
inline constexpr std::array<lstm_cell::CellSlots, 2> kSlots{{
    {1, 5, 9, 12, 16, 53, 40, 35, 36},
    {18, 22, 26, 29, 33, 57, 44, 37, 38},
}};
inline constexpr std::size_t kAux = 39, kMerge = 51, kTimeMajor = 52;

/// The node's layout and its two cells.
struct Geometry {
  std::uint32_t time = 0, batch = 0;
  bool time_major = true, merge = false, cross = false, parallel = false;
  std::array<lstm_cell::CellShape, 2> cells;
};

/// `read_params`: the layout and merge flags are known (else the batch is bounded by the larger
/// of the first two dimensions and the states are not checked).
inline Expected<Geometry> geometry(const NodeIO& io, bool read_params) {
  Geometry g;
  const RtOperand& in = io.input(0);
  if (!in.rank_known || in.dims.rank() != 3) return NNHAL_INVALID("%s input 0 must be 3-D", kName);
  if (read_params) {
    g.time_major = io.scalar<OperandType::BOOL>(kTimeMajor) != 0;
    g.merge = io.scalar<OperandType::BOOL>(kMerge) != 0;
    g.time = in.dims[g.time_major ? 0 : 1];
    g.batch = in.dims[g.time_major ? 1 : 0];
    const std::size_t n = io.output_count();
    if (g.merge ? (n != 1 && n != 5) : (n != 2 && n != 6))
      return NNHAL_INVALID("%s has %zu outputs, expected %s with merge_outputs %s", kName, n,
                           g.merge ? "1 or 5" : "2 or 6", g.merge ? "true" : "false");
  } else {
    g.batch = in.dims[0] > in.dims[1] ? in.dims[0] : in.dims[1];
  }
  const bool aux_input = io.has_input(kAux);
  const bool aux_weights = io.has_input(kSlots[0].aux_weights + 1);
  if (aux_weights && !aux_input)
    return NNHAL_INVALID("%s: auxiliary weights are given without the auxiliary input %zu", kName, kAux);
  if (aux_weights != io.has_input(kSlots[1].aux_weights + 1))
    return NNHAL_INVALID("%s: forward and backward auxiliary weights must be given together", kName);
  g.cross = aux_input && aux_weights;
  g.parallel = aux_input && !aux_weights;
  std::uint32_t aux_size = 0;
  if (aux_input) {
    const RtOperand& a = io.input(kAux);
    if (!a.rank_known || a.dims.rank() != 3 || a.dims[0] != in.dims[0] || a.dims[1] != in.dims[1])
      return NNHAL_INVALID("%s auxiliary input %zu must be 3-D with the input's first two dimensions", kName, kAux);
    aux_size = a.dims[2];
    if (g.cross && aux_size != in.dims[2])
      return NNHAL_INVALID("%s auxiliary input %zu must have the input's size %" PRIu32
                           " (cross linking)",
                           kName, kAux, in.dims[2]);
  }
  for (std::size_t d = 0; d < 2; ++d) {
    const std::uint32_t n_in = d == 1 && g.parallel ? aux_size : in.dims[2];
    auto c = lstm_cell::cell_shape(io, kSlots[d], n_in, g.cross, aux_size, kName);
    if (!c) return std::move(c.error());
    g.cells[d] = *c;
    if (read_params) {
      NNHAL_TRY(lstm_cell::check_dims(io.input(kSlots[d].output_state), kSlots[d].output_state, g.batch, c->output,
                                      kName));
      NNHAL_TRY(lstm_cell::check_dims(io.input(kSlots[d].cell_state), kSlots[d].cell_state, g.batch, c->cell, kName));
    }
  }
  return g;
}

/// The largest geometry the operands allow when some shape is unknown at prepare
/// (lstm_cell::upper_bound_shape for each cell).
inline Expected<Geometry> upper_bound(const NodeIO& io) {
  const RtOperand& in = io.input(0);
  if (!in.shape_known() || in.dims.rank() != 3) return NNHAL_FAILURE("%s: input shape unknown at prepare", kName);
  Geometry g;
  g.batch = in.dims[0] > in.dims[1] ? in.dims[0] : in.dims[1];
  const bool aux_input = io.has_input(kAux) && io.input(kAux).shape_known() && io.input(kAux).dims.rank() == 3;
  g.cross = aux_input && io.has_input(kSlots[0].aux_weights + 1);
  g.parallel = aux_input && !g.cross;
  const std::uint32_t aux_size = aux_input ? io.input(kAux).dims[2] : 0;
  for (std::size_t d = 0; d < 2; ++d) {
    auto c = lstm_cell::upper_bound_shape(io, kSlots[d], d == 1 && g.parallel ? aux_size : in.dims[2], g.cross,
                                          aux_size, kName);
    if (!c) return std::move(c.error());
    g.cells[d] = *c;
  }
  return g;
}

inline Status infer(const NodeIO& io) {
  auto g = geometry(io, true);
  if (!g) return std::move(g.error());
  NNHAL_TRY(lstm_cell::check_scalars(io, 48, kName));
  const Dims& in = io.input(0).dims;
  const std::uint32_t fw = g->cells[0].output, bw = g->cells[1].output;
  lstm_cell::set_shape(io, 0, {in[0], in[1], g->merge ? fw + bw : fw});
  if (!g->merge) lstm_cell::set_shape(io, 1, {in[0], in[1], bw});
  if (io.output_count() >= 5) {
    const std::size_t first = g->merge ? 1 : 2;
    for (std::size_t d = 0; d < 2; ++d) {
      lstm_cell::set_shape(io, first + 2 * d, {g->batch, g->cells[d].output});
      lstm_cell::set_shape(io, first + 2 * d + 1, {g->batch, g->cells[d].cell});
    }
  }
  return {};
}

template <OperandType T>
Status kernel(const NodeIO& io) {
  using E = element_t<T>;
  auto ge = geometry(io, true);
  if (!ge) return std::move(ge.error());
  const Geometry& g = *ge;
  auto p = lstm_cell::read_scalars<E>(io, 48, kName);
  if (!p) return std::move(p.error());
  if (g.batch == 0) return {};  // zero-sized batch: nothing to compute
  const lstm_cell::NodePlan& np = io.params<lstm_cell::NodePlan>();
  auto scratch = lstm_cell::step_scratch(io, np, g.cells.data(), 2, g.batch, kName);
  if (!scratch) return std::move(scratch.error());
  const std::uint32_t fw_out = g.cells[0].output, bw_out = g.cells[1].output;
  const std::size_t states = g.merge ? 1 : 2;
  for (std::size_t d = 0; d < 2; ++d) {
    auto block = lstm_cell::cell_block<E>(io, np, d, kSlots[d], g.cells[d], kName);
    if (!block) return std::move(block.error());
    const lstm_cell::CellShape& c = g.cells[d];
    lstm_cell::Sequence<E> seq;
    seq.x = io.in_data<T>(d == 1 && g.parallel ? kAux : 0);
    seq.x_rows = {g.time, g.batch, c.input, 0, g.time_major};
    if (g.cross) {
      seq.aux = io.in_data<T>(kAux);
      seq.aux_rows = {g.time, g.batch, c.aux, 0, g.time_major};
    }
    if (g.merge) {
      seq.out = io.out_data<T>(0);
      seq.out_rows = {g.time, g.batch, std::size_t{fw_out} + bw_out, d == 0 ? 0 : fw_out, g.time_major};
    } else {
      seq.out = io.out_data<T>(d);
      seq.out_rows = {g.time, g.batch, c.output, 0, g.time_major};
    }
    seq.output_state_in = io.in_data<T>(kSlots[d].output_state);
    seq.cell_state_in = io.in_data<T>(kSlots[d].cell_state);
    if (io.output_count() >= 5) {
      seq.output_state_out = io.out_data<T>(states + 2 * d);
      seq.cell_state_out = io.out_data<T>(states + 2 * d + 1);
    }
    seq.forward = d == 0;
    lstm_cell::run<E>(*np.fc, c, *p, *block, *scratch, seq);
  }
  return {};
}

/// BIDIRECTIONAL_SEQUENCE_LSTM's kernels, keyed by the input type.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16};

  static Status infer(const NodeIO& io) { return bidirectional_sequence_lstm::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO& io, KernelPrepare& prepare) {
    lstm_cell::NodePlan np;
    np.fc = lstm_cell::fc_table(prepare);
    auto known = [&](std::size_t i) { return io.input(i).data != nullptr && lstm_cell::is_constant(io.input(i)); };
    auto g = geometry(io, known(kMerge) && known(kTimeMajor));
    if (g) {
      np = lstm_cell::plan<element_t<T>>(io, prepare, kSlots.data(), g->cells.data(), 2, g->batch, true);
    } else if (auto b = upper_bound(io); b) {
      np = lstm_cell::plan<element_t<T>>(io, prepare, kSlots.data(), b->cells.data(), 2, b->batch, false);
    }
    prepare.store(np);
    return &kernel<T>;
  }
};

}  // namespace nnhal::kernels::bidirectional_sequence_lstm

namespace nnhal {

template <>
struct Kernels<OperationType::BIDIRECTIONAL_SEQUENCE_LSTM> : kernels::bidirectional_sequence_lstm::Family {};
static_assert(kernels_cover_row<OperationType::BIDIRECTIONAL_SEQUENCE_LSTM>());

}  // namespace nnhal
