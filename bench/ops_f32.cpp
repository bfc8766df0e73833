// FLOAT32 operation benchmarks, each timed through a prepared model: Execution::run(request),
// so request validation, binding and kernel dispatch are part of every iteration. Single
// thread. Counters: bytes_per_second (bytes the kernel must move: inputs read + output
// written; for FULLY_CONNECTED the weights, input and output), items_per_second (output
// elements) and FLOPS for FULLY_CONNECTED (2 * batch * input_size * units per run).

#include <benchmark/benchmark.h>

#include <cstdint>

#include "bench_models.hpp"

namespace {

using nnhal::FusedActivationFunc;
using nnhal::OperationType;
namespace nb = nnhal::bench;

/// ADD of two [n] tensors, activation NONE.
void add_f32(benchmark::State& state, std::uint32_t n) {
  const nb::OwnedModel om = nb::binary_f32_model(OperationType::ADD, {n});
  nb::OwnedRequest req(om.model);
  if (!nb::run_model_loop(state, om.model, req)) return;
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * n);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * n * 3 * sizeof(float));
}

/// FULLY_CONNECTED [batch, input_size] x [units, input_size]^T + bias, activation NONE.
void fc_f32(benchmark::State& state, std::uint32_t batch, std::uint32_t input_size,
            std::uint32_t units) {
  const nb::OwnedModel om = nb::fully_connected_f32_model(batch, input_size, units);
  nb::OwnedRequest req(om.model);
  if (!nb::run_model_loop(state, om.model, req)) return;
  const auto it = static_cast<std::int64_t>(state.iterations());
  const std::int64_t floats = std::int64_t{units} * input_size + std::int64_t{batch} * input_size +
                              std::int64_t{batch} * units + units;
  state.SetItemsProcessed(it * batch * units);
  state.SetBytesProcessed(it * floats * static_cast<std::int64_t>(sizeof(float)));
  state.counters["FLOPS"] = benchmark::Counter(2.0 * batch * input_size * units,
                                               benchmark::Counter::kIsIterationInvariantRate,
                                               benchmark::Counter::kIs1000);
}

void add_f32_1m(benchmark::State& state) {
  add_f32(state, 1u << 20);
}
void add_f32_16k(benchmark::State& state) {
  add_f32(state, 1u << 14);
}
void fc_f32_b1_1024x1000(benchmark::State& state) {
  fc_f32(state, 1, 1024, 1000);
}
void fc_f32_b64_1024x1024(benchmark::State& state) {
  fc_f32(state, 64, 1024, 1024);
}

}  // namespace

BENCHMARK(add_f32_1m);
BENCHMARK(add_f32_16k);
BENCHMARK(fc_f32_b1_1024x1000);
BENCHMARK(fc_f32_b64_1024x1024);
