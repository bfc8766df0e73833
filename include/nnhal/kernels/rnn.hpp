#pragma once
/// \file
/// RNN kernels (the row: nnhal/ops/rnn.hpp): one step of a basic recurrent layer,
/// `h = act(W x + R h_prev + b)`, written to both outputs (hidden_state_out, output).
///
/// The reference (NNAPI RNN::Prepare) checks only input_size and num_units agreement and reads
/// the hidden state without checking its shape; nnhal also requires the ranks and a hidden
/// state of [batch, num_units]. The arithmetic is the shared cell (kernels/common/rnn.hpp): the
/// FLOAT32 kernel uses hidden_state_out as the scratch of the SIMD products, so it needs no
/// workspace.

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/rnn.hpp"
#include "nnhal/kernels/common/simd_params.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/rnn.hpp"

namespace nnhal::kernels::rnn {

inline constexpr const char* kName = "RNN";

/// The shape checks; returns [batch, num_units], the shape of both outputs.
inline Expected<Dims> check(const NodeIO& io) {
  NNHAL_TRY(rnn_common::require_inputs(io, {0, 1, 2, 3, 4, 5}, kName));
  NNHAL_TRY(rnn_common::activation(io, 5, kName));
  for (std::size_t i : {0, 1, 2, 4}) NNHAL_TRY(rnn_common::check_rank(io, i, 2, kName));
  NNHAL_TRY(rnn_common::check_rank(io, 3, 1, kName));
  const std::uint32_t batch = io.input(0).dims[0], input_size = io.input(0).dims[1];
  const std::uint32_t units = io.input(1).dims[0];
  if (units == 0) return NNHAL_INVALID("%s: weights have no units", kName);
  NNHAL_TRY(rnn_common::check_dim(io, 1, 1, input_size, kName));
  NNHAL_TRY(rnn_common::check_dim(io, 2, 0, units, kName));
  NNHAL_TRY(rnn_common::check_dim(io, 2, 1, units, kName));
  NNHAL_TRY(rnn_common::check_dim(io, 3, 0, units, kName));
  NNHAL_TRY(rnn_common::check_dim(io, 4, 0, batch, kName));
  NNHAL_TRY(rnn_common::check_dim(io, 4, 1, units, kName));
  return Dims{batch, units};
}

inline Status infer(const NodeIO& io) {
  auto d = check(io);
  if (!d) return std::move(d.error());
  NNHAL_TRY(set_output(io, 0, *d));
  return set_output(io, 1, *d);
}

template <OperandType T>
Status kernel(const NodeIO& io) {
  using E = element_t<T>;
  auto shape = check(io);  // cheap; guards a request that omitted an input
  if (!shape) return std::move(shape.error());
  if (io.output(0).dims != *shape || io.output(1).dims != *shape)
    return NNHAL_FAILURE("%s output shapes do not match its inputs", kName);
  auto act = rnn_common::activation(io, 5, kName);
  if (!act) return std::move(act.error());
  rnn_common::Direction<E> d;
  d.max_time = 1;
  d.batch = io.input(0).dims[0];
  d.input = io.in_data<T>(0);
  d.input_size = io.input(0).dims[1];
  d.weights = io.in_data<T>(1);
  d.recurrent = io.in_data<T>(2);
  d.bias = io.in_data<T>(3);
  d.hidden_in = io.in_data<T>(4);
  d.units = io.input(1).dims[0];
  d.output = io.out_data<T>(1);
  d.out_stride = d.units;
  d.act = *act;
  if (d.batch == 0) return {};
  E* state = io.out_data<T>(0);
  if constexpr (T == OperandType::TENSOR_FLOAT32) {
    // hidden_state_out ([batch, units]) is the scratch of the SIMD products until the final copy.
    rnn_common::run(d, io.params<SimdParams<simd::FullyConnectedF32>>().simd, state);
  } else {
    rnn_common::run(d);
  }
  std::memcpy(state, d.output, d.batch * d.units * sizeof(E));
  return {};
}

/// RNN's kernels, keyed by the input type.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16};
  static Status infer(const NodeIO& io) { return rnn::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare& prepare) {
    if constexpr (T == OperandType::TENSOR_FLOAT32)  // a null table: the plain loop (reference kernels)
      prepare.store(prepare.reference ? SimdParams<simd::FullyConnectedF32>{nullptr}
                                      : simd_params(simd::fully_connected_f32_table()));
    return &kernel<T>;
  }
};

}  // namespace nnhal::kernels::rnn

namespace nnhal {

template <>
struct Kernels<OperationType::RNN> : kernels::rnn::Family {};
static_assert(kernels_cover_row<OperationType::RNN>());

}  // namespace nnhal
