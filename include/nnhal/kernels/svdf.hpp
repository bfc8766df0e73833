#pragma once
/// \file
/// SVDF kernels (the row: nnhal/ops/svdf.hpp): one step of a singular-value-decomposition
/// filter. With num_filters = num_units * rank, weights_feature [num_filters, input_size],
/// weights_time [num_filters, memory_size] and the state [batch, memory_size * num_filters]
/// (filter f's memory at [f * memory_size, (f + 1) * memory_size), oldest first):
///   a[b, f]   = weights_feature[f] . input[b]
///   s[b, f]   = sum_m weights_time[f, m] * mem[m], mem = state_in[b, f] with its last entry
///               replaced by a[b, f]
///   out[b, u] = act(bias[u] + sum_r s[b, u * rank + r])
///   state_out[b, f] = mem shifted left by one, the last entry 0 (the reference's VectorShiftLeft:
///                     the newest activation lands at memory_size - 2).
/// The operation list (spec/operations.md) gives the state as [batch, (memory_size - 1) *
/// num_units * rank]; the reference implementation (NNAPI SVDF::Prepare) and the conformance
/// models use memory_size * num_filters, which nnhal follows. The reference does not check the
/// state's shape (it reads past a short one); nnhal requires it, and rank > 0 dividing
/// num_filters, memory_size > 0, the ranks and sizes.
///
/// Arithmetic in float (FLOAT16 converted, as the reference does, and rounded once per output);
/// the sums in the reference's order. FLOAT32 computes the feature products a[b, f] with the
/// FULLY_CONNECTED SIMD kernel into batch * num_filters floats of workspace, planned when the
/// shapes are known at prepare; otherwise the plain loop.

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/rnn.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/svdf.hpp"

namespace nnhal::kernels::svdf {

inline constexpr const char* kName = "SVDF";

/// The sizes of a node after its shape checks.
struct Shape {
  std::uint32_t batch = 0, input_size = 0, filters = 0, memory = 0, units = 0, rank = 0;
  bool bias = false;
  Dims state() const noexcept { return Dims{batch, memory * filters}; }
};

inline Expected<Shape> check(const NodeIO& io) {
  NNHAL_TRY(rnn_common::require_inputs(io, {0, 1, 2, 4, 5, 6}, kName));
  NNHAL_TRY(rnn_common::activation(io, 6, kName));
  const std::int32_t rank = io.scalar<OperandType::INT32>(5);
  if (rank <= 0) return NNHAL_INVALID("%s: rank is %" PRId32 ", expected > 0", kName, rank);
  for (std::size_t i : {0, 1, 2, 4}) NNHAL_TRY(rnn_common::check_rank(io, i, 2, kName));
  Shape s;
  s.batch = io.input(0).dims[0];
  s.input_size = io.input(0).dims[1];
  s.filters = io.input(1).dims[0];
  s.memory = io.input(2).dims[1];
  s.rank = static_cast<std::uint32_t>(rank);
  if (s.filters == 0 || s.filters % s.rank != 0)
    return NNHAL_INVALID(
        "%s: num_filters %" PRIu32
        " (weights_feature dimension 0) is not a positive multiple of rank %" PRId32,
        kName, s.filters, rank);
  if (s.memory == 0) return NNHAL_INVALID("%s: memory_size (weights_time dimension 1) is 0", kName);
  s.units = s.filters / s.rank;
  NNHAL_TRY(rnn_common::check_dim(io, 1, 1, s.input_size, kName));
  NNHAL_TRY(rnn_common::check_dim(io, 2, 0, s.filters, kName));
  s.bias = io.has_input(3);
  if (s.bias) {
    NNHAL_TRY(rnn_common::check_rank(io, 3, 1, kName));
    NNHAL_TRY(rnn_common::check_dim(io, 3, 0, s.units, kName));
  }
  NNHAL_TRY(rnn_common::check_dim(io, 4, 0, s.batch, kName));
  std::uint64_t state = 0;
  if (__builtin_mul_overflow(std::uint64_t{s.memory}, std::uint64_t{s.filters}, &state) || state > UINT32_MAX)
    return NNHAL_INVALID("%s: the state size overflows", kName);
  NNHAL_TRY(rnn_common::check_dim(io, 4, 1, static_cast<std::uint32_t>(state), kName));
  return s;
}

inline Status infer(const NodeIO& io) {
  auto s = check(io);
  if (!s) return std::move(s.error());
  NNHAL_TRY(set_output(io, 0, s->state()));
  return set_output(io, 1, Dims{s->batch, s->units});
}

/// The step over float-convertible data E. `feature` (optional) holds a[b, f] precomputed.
template <class E>
void step(const Shape& s, const E* x, const E* wf, const E* wt, const E* bias, const E* state_in, E* state_out, E* out,
          const float* feature, FloatRange act) noexcept {
  const std::size_t mem = s.memory, filters = s.filters;
  for (std::size_t b = 0; b < s.batch; ++b) {
    const E* xb = x + b * s.input_size;
    for (std::size_t u = 0; u < s.units; ++u) {
      float acc = bias != nullptr ? static_cast<float>(bias[u]) : 0.0f;
      for (std::size_t r = 0; r < s.rank; ++r) {
        const std::size_t f = u * s.rank + r;
        float a = 0.0f;
        if (feature != nullptr) {
          a = feature[b * filters + f];
        } else {
          const E* w = wf + f * s.input_size;
          for (std::size_t i = 0; i < s.input_size; ++i) a += static_cast<float>(w[i]) * static_cast<float>(xb[i]);
        }
        const E* si = state_in + (b * filters + f) * mem;
        E* so = state_out + (b * filters + f) * mem;
        const E* wtf = wt + f * mem;
        float sum = 0.0f;
        for (std::size_t m = 0; m + 1 < mem; ++m) sum += static_cast<float>(wtf[m]) * static_cast<float>(si[m]);
        sum += static_cast<float>(wtf[mem - 1]) * a;
        acc += sum;
        for (std::size_t m = 0; m + 2 < mem; ++m) so[m] = si[m + 1];
        if (mem >= 2) so[mem - 2] = E(a);
        so[mem - 1] = E(0.0f);
      }
      out[b * s.units + u] = E(act.apply(acc));
    }
  }
}

/// Node parameters: the SIMD table and the feature scratch planned at prepare (floats).
using Params = rnn_common::SeqParams;

template <OperandType T>
Status kernel(const NodeIO& io) {
  using E = element_t<T>;
  auto se = check(io);
  if (!se) return std::move(se.error());
  const Shape& s = *se;
  if (io.output(0).dims != s.state() || io.output(1).dims != Dims{s.batch, s.units})
    return NNHAL_FAILURE("%s output shapes do not match its inputs", kName);
  if (s.batch == 0) return {};
  const FloatRange act = *rnn_common::activation(io, 6, kName);
  const E* x = io.in_data<T>(0);
  const E* wf = io.in_data<T>(1);
  const float* feature = nullptr;
  if constexpr (T == OperandType::TENSOR_FLOAT32) {
    if (float* ws = rnn_common::scratch(io, std::size_t{s.batch} * s.filters); ws != nullptr) {
      constexpr float kInf = std::numeric_limits<float>::infinity();
      io.params<Params>().simd->run(x, wf, nullptr, ws, s.batch, s.input_size, s.filters, -kInf, kInf);
      feature = ws;
    }
  }
  step<E>(s, x, wf, io.in_data<T>(2), s.bias ? io.in_data<T>(3) : nullptr, io.in_data<T>(4), io.out_data<T>(0),
          io.out_data<T>(1), feature, act);
  return {};
}

/// SVDF's kernels, keyed by the input type.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16};
  static Status infer(const NodeIO& io) { return svdf::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO& io, KernelPrepare& prepare) {
    if constexpr (T == OperandType::TENSOR_FLOAT32) {
      Params p;  // reference kernels: no table, no scratch (step's plain loop)
      std::size_t floats = 0;
      if (!prepare.reference &&
          !__builtin_mul_overflow(std::size_t{rnn_common::known_dim(io, 0, 0)}, std::size_t{rnn_common::known_dim(io, 1, 0)},
                                  &floats) &&
          floats <= (std::size_t{1} << 28)) {
        p.simd = &simd::fully_connected_f32_table();
        p.scratch_floats = floats;
        prepare.workspace_bytes = floats * sizeof(float);
      }
      prepare.store(p);
    }
    return &kernel<T>;
  }
};

}  // namespace nnhal::kernels::svdf

namespace nnhal {

template <>
struct Kernels<OperationType::SVDF> : kernels::svdf::Family {};
static_assert(kernels_cover_row<OperationType::SVDF>());

}  // namespace nnhal
