#pragma once
/// \file
/// LSTM kernels (the row: nnhal/ops/lstm.hpp): one step of an LSTM cell, FLOAT32 and FLOAT16
/// (computed in float), with optional CIFG, peephole, projection (+ bias) and, in the 27-input
/// form, layer normalization. The step itself is shared with the sequence operations
/// (nnhal/kernels/common/lstm.hpp, which describes the numerics and the packed weights).
///
/// Runtime checks (the reference's LSTMCell::Prepare / CheckInputTensorDimensions): input
/// [batch, input_size]; every weight, bias and state of the shape its role fixes; the optional
/// groups consistent on the actual operands (a request may omit a subgraph input); activation
/// one of NONE, RELU, RELU6, TANH, SIGMOID; clips >= 0. Outputs: scratch [batch, cell * 4] (3
/// under CIFG; its values are the last gate activations, which no test reads), output state
/// [batch, output], cell state [batch, cell], output [batch, output].

#include <array>
#include <cstddef>
#include <cstdint>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/lstm.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/lstm.hpp"

namespace nnhal::kernels::lstm {

inline constexpr const char* kName = "LSTM";

inline lstm_cell::CellSlots slots(const NodeIO& io) noexcept {
  return lstm_cell::lstm_slots(io.input_count() == 27 ? 23 : lstm_cell::kNone);
}

/// The cell's shape and the batch, all input shapes checked.
inline Expected<lstm_cell::CellShape> shape(const NodeIO& io, std::uint32_t& batch) {
  const RtOperand& in = io.input(0);
  if (!in.rank_known || in.dims.rank() != 2) return NNHAL_INVALID("%s input 0 must be 2-D [batch, input_size]", kName);
  batch = in.dims[0];
  auto c = lstm_cell::cell_shape(io, slots(io), in.dims[1], false, 0, kName);
  if (!c) return c;
  NNHAL_TRY(lstm_cell::check_dims(io.input(18), 18, batch, c->output, kName));
  NNHAL_TRY(lstm_cell::check_dims(io.input(19), 19, batch, c->cell, kName));
  return c;
}

inline Status infer(const NodeIO& io) {
  std::uint32_t batch = 0;
  auto c = shape(io, batch);
  if (!c) return std::move(c.error());
  NNHAL_TRY(lstm_cell::check_scalars(io, 20, kName));
  lstm_cell::set_shape(io, 0, {batch, c->gates() * c->cell});
  lstm_cell::set_shape(io, 1, {batch, c->output});
  lstm_cell::set_shape(io, 2, {batch, c->cell});
  lstm_cell::set_shape(io, 3, {batch, c->output});
  return {};
}

template <OperandType T>
Status kernel(const NodeIO& io) {
  using E = element_t<T>;
  std::uint32_t batch = 0;
  auto c = shape(io, batch);
  if (!c) return std::move(c.error());
  auto p = lstm_cell::read_scalars<E>(io, 20, kName);
  if (!p) return std::move(p.error());
  if (batch == 0) return {};  // zero-sized batch: nothing to compute
  const lstm_cell::NodePlan& np = io.params<lstm_cell::NodePlan>();
  const lstm_cell::CellSlots s = slots(io);
  auto block = lstm_cell::cell_block<E>(io, np, 0, s, *c, kName);
  if (!block) return std::move(block.error());
  auto scratch = lstm_cell::step_scratch(io, np, &*c, 1, batch, kName);
  if (!scratch) return std::move(scratch.error());
  lstm_cell::Sequence<E> seq;
  seq.x = io.in_data<T>(0);
  seq.x_rows = {1, batch, c->input, 0, true};
  seq.out = io.out_data<T>(3);
  seq.out_rows = {1, batch, c->output, 0, true};
  seq.output_state_in = io.in_data<T>(18);
  seq.cell_state_in = io.in_data<T>(19);
  seq.output_state_out = io.out_data<T>(1);
  seq.cell_state_out = io.out_data<T>(2);
  seq.scratch_out = io.out_data<T>(0);
  lstm_cell::run<E>(*np.fc, *c, *p, *block, *scratch, seq);
  return {};
}

/// LSTM's kernels, keyed by the input type.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16};

  static Status infer(const NodeIO& io) { return lstm::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO& io, KernelPrepare& prepare) {
    std::uint32_t batch = 0;
    lstm_cell::NodePlan np;
    np.fc = lstm_cell::fc_table(prepare);
    const lstm_cell::CellSlots s = slots(io);
    auto c = shape(io, batch);
    const bool exact = c.has_value();
    if (const RtOperand& in = io.input(0); !exact && in.shape_known() && in.dims.rank() == 2) {
      batch = in.dims[0];
      c = lstm_cell::upper_bound_shape(io, s, in.dims[1], false, 0, kName);
    }
    if (c) np = lstm_cell::plan<element_t<T>>(io, prepare, &s, &*c, 1, batch, exact);
    prepare.store(np);
    return &kernel<T>;
  }
};

}  // namespace nnhal::kernels::lstm

namespace nnhal {

template <>
struct Kernels<OperationType::LSTM> : kernels::lstm::Family {};
static_assert(kernels_cover_row<OperationType::LSTM>());

}  // namespace nnhal
