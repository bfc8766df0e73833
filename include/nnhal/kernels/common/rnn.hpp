#pragma once
/// \file
/// What the basic recurrent kernels share (RNN, UNIDIRECTIONAL_SEQUENCE_RNN,
/// BIDIRECTIONAL_SEQUENCE_RNN; SVDF uses the small helpers): the cell of one direction run over
/// a sequence, shape checks, and the activation scalar.
///
/// Numerics as the reference (NNAPI RNN::RNNStep): per batch row, `o = bias; o += W x;
/// o += W_aux x_aux; o += R h_prev; o = act(o)`, each sum over the inner index in order. The
/// reference computes FLOAT16 in half arithmetic; nnhal computes in float and rounds once per
/// output (the hidden state fed to the next step is that rounded output, as in the reference).
/// The FLOAT32 path with scratch (batch * units floats) computes the three products with the
/// FULLY_CONNECTED SIMD kernel (which may reorder the additions,
/// nnhal/simd/fully_connected_f32-inl.h), as matrix products over the rows that are contiguous;
/// without scratch (shapes unknown at prepare) it runs the plain loop.

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <type_traits>

#include "nnhal/core/dims.hpp"
#include "nnhal/core/result.hpp"
#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/activation.hpp"
#include "nnhal/simd/fully_connected_f32.hpp"

namespace nnhal::kernels::rnn_common {

/// The fused activation at input `i` as a clamp range; INVALID_ARGUMENT for an undefined code.
inline Expected<FloatRange> activation(const NodeIO& io, std::size_t i, const char* name) {
  const std::int32_t act = io.scalar<OperandType::INT32>(i);
  if (!is_valid_activation(act))
    return NNHAL_INVALID("%s: invalid fused activation %" PRId32, name, act);
  return float_activation_range(act);
}

/// INVALID_ARGUMENT unless every input listed is present (a request may omit a model input).
inline Status require_inputs(const NodeIO& io, std::initializer_list<std::size_t> inputs, const char* name) {
  for (std::size_t i : inputs)
    if (!io.has_input(i))
      return NNHAL_INVALID("%s: required input %zu is omitted", name, i);
  return {};
}

/// INVALID_ARGUMENT unless input `i` has rank `rank`.
inline Status check_rank(const NodeIO& io, std::size_t i, std::size_t rank, const char* name) {
  const RtOperand& op = io.input(i);
  if (!op.rank_known || op.dims.rank() != rank)
    return NNHAL_INVALID("%s: input %zu has rank %zu, expected %zu", name, i, op.rank_known ? op.dims.rank() : 0,
                         rank);
  return {};
}

/// INVALID_ARGUMENT unless dimension `d` of input `i` is `want`.
inline Status check_dim(const NodeIO& io, std::size_t i, std::size_t d, std::uint32_t want, const char* name) {
  const std::uint32_t got = io.input(i).dims[d];
  if (got != want)
    return NNHAL_INVALID("%s: input %zu dimension %zu is %" PRIu32 ", expected %" PRIu32, name, i,
                         d, got, want);
  return {};
}

/// One direction of a basic RNN over a sequence of `max_time` steps of `batch` rows. Row (t, b)
/// of the input, the auxiliary input and the output is `time_major ? t * batch + b : b *
/// max_time + t`; output rows are `out_stride` elements apart and this direction writes
/// `units` of them from `out_offset` (the merged BIDIRECTIONAL output). The hidden state of a
/// step is the previous step's output row (`hidden_in` before the first step); a backward
/// direction runs t from max_time - 1 down to 0. `hidden_out` (optional) receives the final
/// state, [batch, units].
template <class E>
struct Direction {
  std::size_t max_time = 0, batch = 0;
  bool time_major = true, backward = false;
  const E* input = nullptr;
  std::size_t input_size = 0;
  const E* aux = nullptr;  ///< nullptr: no auxiliary term
  std::size_t aux_size = 0;
  const E* weights = nullptr;      ///< [units, input_size]
  const E* aux_weights = nullptr;  ///< [units, aux_size]
  const E* recurrent = nullptr;    ///< [units, units]
  const E* bias = nullptr;         ///< [units]
  const E* hidden_in = nullptr;    ///< [batch, units]
  std::size_t units = 0;
  E* output = nullptr;
  std::size_t out_stride = 0, out_offset = 0;
  E* hidden_out = nullptr;
  FloatRange act;

  std::size_t row(std::size_t t, std::size_t b) const noexcept {
    return time_major ? t * batch + b : b * max_time + t;
  }
};

/// Where the hidden state read by step `step` (at time t) of batch row b is.
template <class E>
const E* previous_state(const Direction<E>& d, std::size_t step, std::size_t t, std::size_t b) noexcept {
  return step == 0 ? d.hidden_in + b * d.units
                   : d.output + d.row(d.backward ? t + 1 : t - 1, b) * d.out_stride + d.out_offset;
}

/// The FLOAT32 SIMD path of run(): `scratch` holds batch * units floats. The input products of
/// all steps are one matrix product when the output rows are dense (they then follow the
/// input's row order); the products of one step are one call when that step's rows are
/// contiguous (time-major data), else one matrix-vector call per row.
inline void run_simd(const Direction<float>& d, const simd::FullyConnectedF32& simd, float* scratch) noexcept {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  const std::size_t n = d.units, batch = d.batch;
  const bool dense = d.out_stride == n && d.out_offset == 0;
  if (dense) simd.run(d.input, d.weights, d.bias, d.output, d.max_time * batch, d.input_size, n, -kInf, kInf);
  // scratch[b * n + u] = sum_k rows(b)[k] * w[u * size + k] for the rows of one step.
  const auto product = [&](auto rows, bool contiguous, const float* w, std::size_t size) {
    if (contiguous) {
      simd.run(rows(0), w, nullptr, scratch, batch, size, n, -kInf, kInf);
    } else {
      for (std::size_t b = 0; b < batch; ++b) simd.run(rows(b), w, nullptr, scratch + b * n, 1, size, n, -kInf, kInf);
    }
  };
  for (std::size_t step = 0; step < d.max_time; ++step) {
    const std::size_t t = d.backward ? d.max_time - 1 - step : step;
    const auto out = [&](std::size_t b) { return d.output + d.row(t, b) * d.out_stride + d.out_offset; };
    if (!dense)
      for (std::size_t b = 0; b < batch; ++b)
        simd.run(d.input + d.row(t, b) * d.input_size, d.weights, d.bias, out(b), 1, d.input_size, n, -kInf, kInf);
    if (d.aux != nullptr) {
      product([&](std::size_t b) { return d.aux + d.row(t, b) * d.aux_size; }, d.time_major, d.aux_weights, d.aux_size);
      for (std::size_t b = 0; b < batch; ++b)
        for (std::size_t u = 0; u < n; ++u) out(b)[u] += scratch[b * n + u];
    }
    product([&](std::size_t b) { return previous_state(d, step, t, b); }, step == 0 || (d.time_major && dense),
            d.recurrent, n);
    for (std::size_t b = 0; b < batch; ++b) {
      float* o = out(b);
      for (std::size_t u = 0; u < n; ++u) o[u] = d.act.apply(o[u] + scratch[b * n + u]);
    }
  }
}

/// Runs `d`. With `simd` and `scratch` (batch * units floats, FLOAT32 only) the products go
/// through the FULLY_CONNECTED SIMD kernel (run_simd); otherwise the plain loop.
template <class E>
void run(const Direction<E>& d, const simd::FullyConnectedF32* simd = nullptr, float* scratch = nullptr) noexcept {
  const std::size_t n = d.units;
  if (d.batch == 0 || n == 0) return;  // zero-sized: nothing to compute or copy
  bool done = false;
  if constexpr (std::is_same_v<E, float>) {
    if (simd != nullptr && scratch != nullptr) {
      run_simd(d, *simd, scratch);
      done = true;
    }
  }
  for (std::size_t step = 0; !done && step < d.max_time; ++step) {
    const std::size_t t = d.backward ? d.max_time - 1 - step : step;
    for (std::size_t b = 0; b < d.batch; ++b) {
      const E* x = d.input + d.row(t, b) * d.input_size;
      const E* xa = d.aux != nullptr ? d.aux + d.row(t, b) * d.aux_size : nullptr;
      const E* h = previous_state(d, step, t, b);
      E* o = d.output + d.row(t, b) * d.out_stride + d.out_offset;
      for (std::size_t u = 0; u < n; ++u) {
        float acc = static_cast<float>(d.bias[u]);
        const E* w = d.weights + u * d.input_size;
        for (std::size_t i = 0; i < d.input_size; ++i) acc += static_cast<float>(x[i]) * static_cast<float>(w[i]);
        if (xa != nullptr) {
          const E* wa = d.aux_weights + u * d.aux_size;
          for (std::size_t i = 0; i < d.aux_size; ++i) acc += static_cast<float>(xa[i]) * static_cast<float>(wa[i]);
        }
        const E* r = d.recurrent + u * n;
        for (std::size_t k = 0; k < n; ++k) acc += static_cast<float>(h[k]) * static_cast<float>(r[k]);
        o[u] = E(d.act.apply(acc));
      }
    }
  }
  if (d.hidden_out == nullptr) return;
  for (std::size_t b = 0; b < d.batch; ++b) {
    const E* last = d.max_time == 0 ? d.hidden_in + b * n
                                    : d.output + d.row(d.backward ? 0 : d.max_time - 1, b) * d.out_stride + d.out_offset;
    for (std::size_t u = 0; u < n; ++u) d.hidden_out[b * n + u] = last[u];
  }
}

/// Node parameters of the sequence kernels: the SIMD table and the scratch planned at prepare
/// (floats; 0 when the shapes were unknown then, and the plain loop runs).
struct SeqParams {
  const simd::FullyConnectedF32* simd = nullptr;
  std::size_t scratch_floats = 0;
};

/// The scratch pointer of a FLOAT32 run needing `floats`, or nullptr when none (or too little)
/// was planned.
inline float* scratch(const NodeIO& io, std::size_t floats) noexcept {
  const auto& p = io.params<SeqParams>();
  if (p.simd == nullptr || io.workspace() == nullptr || floats > p.scratch_floats) return nullptr;
  return reinterpret_cast<float*>(io.workspace());
}

/// Dimension `d` of input `i` when its shape is known at prepare, else 0.
inline std::uint32_t known_dim(const NodeIO& io, std::size_t i, std::size_t d) noexcept {
  const RtOperand& op = io.input(i);
  return op.has_value() && op.shape_known() && op.dims.rank() > d ? op.dims[d] : 0;
}

/// Plans the scratch of a FLOAT32 sequence kernel: batch * units floats, from the [batch,
/// units] hidden-state inputs listed when their shapes are known at prepare (the largest).
/// Nothing (no table, no scratch: the plain loop) when prepare asks for reference kernels.
inline SeqParams plan_scratch(const NodeIO& io, KernelPrepare& prepare, std::initializer_list<std::size_t> states) {
  SeqParams p;
  if (prepare.reference) {  // reference kernels: the plain loop, no scratch
    prepare.store(p);
    return p;
  }
  p.simd = &simd::fully_connected_f32_table();
  for (std::size_t i : states) {
    std::size_t floats = 0;
    if (__builtin_mul_overflow(std::size_t{known_dim(io, i, 0)}, std::size_t{known_dim(io, i, 1)}, &floats) ||
        floats > (std::size_t{1} << 28))
      floats = 0;  // too large to plan: the plain loop runs
    if (floats > p.scratch_floats) p.scratch_floats = floats;
  }
  prepare.workspace_bytes = p.scratch_floats * sizeof(float);
  prepare.store(p);
  return p;
}

}  // namespace nnhal::kernels::rnn_common
