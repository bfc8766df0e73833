#pragma once
/// \file
/// UNIDIRECTIONAL_SEQUENCE_LSTM kernels (the row: nnhal/ops/unidirectional_sequence_lstm.hpp):
/// an LSTM cell run over the time dimension of a 3-D input, FLOAT32 and FLOAT16 (computed in
/// float, the states kept in float between steps as the reference does). The cell is LSTM's
/// (nnhal/kernels/common/lstm.hpp); input 23 says whether the input is time-major [time, batch,
/// input] or batch-major [batch, time, input], and the output follows the same layout. Outputs:
/// the sequence [.., .., output_size] and, with 3 outputs (1.3), the final output state [batch,
/// output] and cell state [batch, cell].

#include <array>
#include <cstddef>
#include <cstdint>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/lstm.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/unidirectional_sequence_lstm.hpp"

namespace nnhal::kernels::unidirectional_sequence_lstm {

inline constexpr const char* kName = "UNIDIRECTIONAL_SEQUENCE_LSTM";
inline constexpr lstm_cell::CellSlots kSlots = lstm_cell::lstm_slots(24);

/// The input's time and batch sizes.
struct Extent {
  std::uint32_t time = 0, batch = 0;
  bool time_major = true;
};

inline Expected<lstm_cell::CellShape> shape(const NodeIO& io, Extent& e, bool read_layout) {
  const RtOperand& in = io.input(0);
  if (!in.rank_known || in.dims.rank() != 3) return NNHAL_INVALID("%s input 0 must be 3-D", kName);
  if (read_layout) {
    e.time_major = io.scalar<OperandType::BOOL>(23) != 0;
    e.time = in.dims[e.time_major ? 0 : 1];
    e.batch = in.dims[e.time_major ? 1 : 0];
  } else {  // layout unknown at prepare: plan for the larger of the two
    e.time = 0;
    e.batch = in.dims[0] > in.dims[1] ? in.dims[0] : in.dims[1];
  }
  auto c = lstm_cell::cell_shape(io, kSlots, in.dims[2], false, 0, kName);
  if (!c) return c;
  if (read_layout) {
    NNHAL_TRY(lstm_cell::check_dims(io.input(18), 18, e.batch, c->output, kName));
    NNHAL_TRY(lstm_cell::check_dims(io.input(19), 19, e.batch, c->cell, kName));
  }
  return c;
}

inline Status infer(const NodeIO& io) {
  Extent e;
  auto c = shape(io, e, true);
  if (!c) return std::move(c.error());
  NNHAL_TRY(lstm_cell::check_scalars(io, 20, kName));
  const Dims& in = io.input(0).dims;
  lstm_cell::set_shape(io, 0, {in[0], in[1], c->output});
  if (io.output_count() == 3) {
    lstm_cell::set_shape(io, 1, {e.batch, c->output});
    lstm_cell::set_shape(io, 2, {e.batch, c->cell});
  }
  return {};
}

template <OperandType T>
Status kernel(const NodeIO& io) {
  using E = element_t<T>;
  Extent e;
  auto c = shape(io, e, true);
  if (!c) return std::move(c.error());
  auto p = lstm_cell::read_scalars<E>(io, 20, kName);
  if (!p) return std::move(p.error());
  if (e.batch == 0) return {};  // zero-sized batch: nothing to compute
  const lstm_cell::NodePlan& np = io.params<lstm_cell::NodePlan>();
  auto block = lstm_cell::cell_block<E>(io, np, 0, kSlots, *c, kName);
  if (!block) return std::move(block.error());
  auto scratch = lstm_cell::step_scratch(io, np, &*c, 1, e.batch, kName);
  if (!scratch) return std::move(scratch.error());
  lstm_cell::Sequence<E> seq;
  seq.x = io.in_data<T>(0);
  seq.x_rows = {e.time, e.batch, c->input, 0, e.time_major};
  seq.out = io.out_data<T>(0);
  seq.out_rows = {e.time, e.batch, c->output, 0, e.time_major};
  seq.output_state_in = io.in_data<T>(18);
  seq.cell_state_in = io.in_data<T>(19);
  if (io.output_count() == 3) {
    seq.output_state_out = io.out_data<T>(1);
    seq.cell_state_out = io.out_data<T>(2);
  }
  lstm_cell::run<E>(*np.fc, *c, *p, *block, *scratch, seq);
  return {};
}

/// UNIDIRECTIONAL_SEQUENCE_LSTM's kernels, keyed by the input type.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16};

  static Status infer(const NodeIO& io) { return unidirectional_sequence_lstm::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO& io, KernelPrepare& prepare) {
    Extent e;
    lstm_cell::NodePlan np;
    np.fc = lstm_cell::fc_table(prepare);
    const RtOperand& layout = io.input(23);
    const bool known = layout.data != nullptr && lstm_cell::is_constant(layout);
    auto c = shape(io, e, known);
    const bool exact = c.has_value();
    if (const RtOperand& in = io.input(0); !exact && in.shape_known() && in.dims.rank() == 3) {
      e.batch = in.dims[0] > in.dims[1] ? in.dims[0] : in.dims[1];
      c = lstm_cell::upper_bound_shape(io, kSlots, in.dims[2], false, 0, kName);
    }
    if (c) np = lstm_cell::plan<element_t<T>>(io, prepare, &kSlots, &*c, 1, e.batch, exact);
    prepare.store(np);
    return &kernel<T>;
  }
};

}  // namespace nnhal::kernels::unidirectional_sequence_lstm

namespace nnhal {

template <>
struct Kernels<OperationType::UNIDIRECTIONAL_SEQUENCE_LSTM> : kernels::unidirectional_sequence_lstm::Family {};
static_assert(kernels_cover_row<OperationType::UNIDIRECTIONAL_SEQUENCE_LSTM>());

}  // namespace nnhal
