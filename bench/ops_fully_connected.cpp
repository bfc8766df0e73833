// 8-bit FULLY_CONNECTED benchmarks, named as the peers' cases (fc_qu8_b1_1024x1000, ...):
// TENSOR_QUANT8_ASYMM (uint8, weights zero point 128) and TENSOR_QUANT8_ASYMM_SIGNED (int8,
// symmetric weights), one execution of a prepared model per iteration. Counter OPS: 2 x the
// multiply-accumulates. (The float32 cases are in ops_f32.cpp.)

#include <benchmark/benchmark.h>

#include "bench_models.hpp"

namespace {

namespace nb = nnhal::bench;
using nnhal::OperandType;

void fc_q8(benchmark::State& state, OperandType type, std::uint32_t batch, std::uint32_t input_size,
           std::uint32_t units) {
  const nb::OwnedModel om = nb::fully_connected_q8_model(type, batch, input_size, units);
  nb::OwnedRequest req(om.model);
  if (!nb::run_model_loop(state, om.model, req)) return;
  state.counters["OPS"] = benchmark::Counter(2.0 * batch * input_size * units, benchmark::Counter::kIsIterationInvariantRate,
                                             benchmark::Counter::kIs1000);
}

void fc_qu8_b1_1024x1000(benchmark::State& state) { fc_q8(state, OperandType::TENSOR_QUANT8_ASYMM, 1, 1024, 1000); }
void fc_qs8_b1_1024x1000(benchmark::State& state) { fc_q8(state, OperandType::TENSOR_QUANT8_ASYMM_SIGNED, 1, 1024, 1000); }
void fc_qu8_b64_1024x1024(benchmark::State& state) { fc_q8(state, OperandType::TENSOR_QUANT8_ASYMM, 64, 1024, 1024); }
void fc_qs8_b64_1024x1024(benchmark::State& state) {
  fc_q8(state, OperandType::TENSOR_QUANT8_ASYMM_SIGNED, 64, 1024, 1024);
}

}  // namespace

BENCHMARK(fc_qu8_b1_1024x1000)->Unit(benchmark::kMicrosecond);
BENCHMARK(fc_qs8_b1_1024x1000)->Unit(benchmark::kMicrosecond);
BENCHMARK(fc_qu8_b64_1024x1024)->Unit(benchmark::kMicrosecond);
BENCHMARK(fc_qs8_b64_1024x1024)->Unit(benchmark::kMicrosecond);
