#pragma once
/// \file
/// UNIDIRECTIONAL_SEQUENCE_RNN kernels (the row: nnhal/ops/unidirectional_sequence_rnn.hpp): the
/// basic RNN cell (kernels/common/rnn.hpp) over the time dimension of a 3-D input, time-major
/// [max_time, batch, input_size] or batch-major [batch, max_time, input_size]; output 0 is the
/// output sequence in the same layout, output 1 (1.3) the final hidden state.
///
/// The reference (NNAPI UnidirectionalSequenceRNN.cpp) transposes batch-major data into
/// temporary vectors; nnhal indexes the rows in place. Runtime checks as the reference's
/// prepare: time_major is 0 or 1, ranks, input_size, num_units and the hidden state's shape.
/// The FLOAT32 kernel's SIMD products need batch * num_units floats of workspace, planned when
/// the hidden state's shape is known at prepare; otherwise it runs the plain loop.

#include <array>
#include <cstddef>
#include <cstdint>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/rnn.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/unidirectional_sequence_rnn.hpp"

namespace nnhal::kernels::unidirectional_sequence_rnn {

inline constexpr const char* kName = "UNIDIRECTIONAL_SEQUENCE_RNN";

/// The sizes of a node after its shape checks.
struct Shape {
  std::uint32_t max_time = 0, batch = 0, input_size = 0, units = 0;
  bool time_major = false;
  Dims output() const noexcept {
    return time_major ? Dims{max_time, batch, units} : Dims{batch, max_time, units};
  }
};

inline Expected<Shape> check(const NodeIO& io) {
  NNHAL_TRY(rnn_common::require_inputs(io, {0, 1, 2, 3, 4, 5, 6}, kName));
  NNHAL_TRY(rnn_common::activation(io, 5, kName));
  const std::int32_t tm = io.scalar<OperandType::INT32>(6);
  if (tm != 0 && tm != 1)
    return NNHAL_INVALID("%s: time_major is %" PRId32 ", expected 0 or 1", kName, tm);
  NNHAL_TRY(rnn_common::check_rank(io, 0, 3, kName));
  for (std::size_t i : {1, 2, 4}) NNHAL_TRY(rnn_common::check_rank(io, i, 2, kName));
  NNHAL_TRY(rnn_common::check_rank(io, 3, 1, kName));
  Shape s;
  s.time_major = tm == 1;
  const Dims& in = io.input(0).dims;
  s.max_time = s.time_major ? in[0] : in[1];
  s.batch = s.time_major ? in[1] : in[0];
  s.input_size = in[2];
  s.units = io.input(1).dims[0];
  if (s.units == 0) return NNHAL_INVALID("%s: weights have no units", kName);
  NNHAL_TRY(rnn_common::check_dim(io, 1, 1, s.input_size, kName));
  NNHAL_TRY(rnn_common::check_dim(io, 2, 0, s.units, kName));
  NNHAL_TRY(rnn_common::check_dim(io, 2, 1, s.units, kName));
  NNHAL_TRY(rnn_common::check_dim(io, 3, 0, s.units, kName));
  NNHAL_TRY(rnn_common::check_dim(io, 4, 0, s.batch, kName));
  NNHAL_TRY(rnn_common::check_dim(io, 4, 1, s.units, kName));
  return s;
}

inline Status infer(const NodeIO& io) {
  auto s = check(io);
  if (!s) return std::move(s.error());
  NNHAL_TRY(set_output(io, 0, s->output()));
  if (io.output_count() > 1) NNHAL_TRY(set_output(io, 1, Dims{s->batch, s->units}));
  return {};
}

template <OperandType T>
Status kernel(const NodeIO& io) {
  using E = element_t<T>;
  auto se = check(io);
  if (!se) return std::move(se.error());
  const Shape& s = *se;
  if (io.output(0).dims != s.output() ||
      (io.output_count() > 1 && io.output(1).dims != Dims{s.batch, s.units}))
    return NNHAL_FAILURE("%s output shapes do not match its inputs", kName);
  rnn_common::Direction<E> d;
  d.max_time = s.max_time;
  d.batch = s.batch;
  d.time_major = s.time_major;
  d.input = io.in_data<T>(0);
  d.input_size = s.input_size;
  d.weights = io.in_data<T>(1);
  d.recurrent = io.in_data<T>(2);
  d.bias = io.in_data<T>(3);
  d.hidden_in = io.in_data<T>(4);
  d.units = s.units;
  d.output = io.out_data<T>(0);
  d.out_stride = s.units;
  d.hidden_out = io.output_count() > 1 ? io.out_data<T>(1) : nullptr;
  d.act = *rnn_common::activation(io, 5, kName);
  if constexpr (T == OperandType::TENSOR_FLOAT32)
    rnn_common::run(d, io.params<rnn_common::SeqParams>().simd,
                    rnn_common::scratch(io, std::size_t{s.batch} * s.units));
  else
    rnn_common::run(d);
  return {};
}

/// UNIDIRECTIONAL_SEQUENCE_RNN's kernels, keyed by the input type.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16};
  static Status infer(const NodeIO& io) { return unidirectional_sequence_rnn::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO& io, KernelPrepare& prepare) {
    if constexpr (T == OperandType::TENSOR_FLOAT32) {
      rnn_common::plan_scratch(io, prepare, {4});
    }
    return &kernel<T>;
  }
};

}  // namespace nnhal::kernels::unidirectional_sequence_rnn

namespace nnhal {

template <>
struct Kernels<OperationType::UNIDIRECTIONAL_SEQUENCE_RNN> : kernels::unidirectional_sequence_rnn::Family {};
static_assert(kernels_cover_row<OperationType::UNIDIRECTIONAL_SEQUENCE_RNN>());

}  // namespace nnhal
