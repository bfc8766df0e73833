// Element-wise and softmax benchmarks under the peers' case names (../shared/peers: compare
// runs them beside XNNPACK and oneDNN on the same shapes). Each is timed through a prepared
// model, Execution::run(request), like bench/ops_f32.cpp. Quantization follows the peers'
// cases: qu8 ADD inputs scale 0.05 zero point 128, output scale 0.1; MUL output scale 0.5;
// SOFTMAX qu8 input scale 0.05 (output 1/256, as NNAPI requires). Counters: bytes_per_second
// (inputs read + output written) and items_per_second (output elements).

#include <benchmark/benchmark.h>

#include <cstdint>

#include "bench_models.hpp"

namespace {

using nnhal::OperandType;
using nnhal::OperationType;
namespace nb = nnhal::bench;

void run(benchmark::State& state, const nb::OwnedModel& om, std::int64_t elements, std::int64_t bytes) {
  nb::OwnedRequest req(om.model);
  if (!nb::run_model_loop(state, om.model, req)) return;
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * elements);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * bytes);
}

void binary(benchmark::State& state, OperationType op, OperandType type, std::uint32_t n) {
  const bool quant = type != OperandType::TENSOR_FLOAT32;
  const nb::Quant in = quant ? nb::Quant{0.05f, 128} : nb::Quant{};
  const nb::Quant out = quant ? nb::Quant{op == OperationType::MUL ? 0.5f : 0.1f, 128} : nb::Quant{};
  const std::int64_t element_bytes = quant ? 1 : 4;
  run(state, nb::binary_model(op, type, {n}, in, out), n, 3 * element_bytes * n);
}

/// qu8 ADD with unequal input scales (0.05 and 0.03, zero points 128, output 0.1): the input
/// stages round (no peer runs this case).
void add_mixed_scales(benchmark::State& state, std::uint32_t n) {
  nb::OwnedModel om = nb::binary_model(OperationType::ADD, OperandType::TENSOR_QUANT8_ASYMM, {n}, nb::Quant{0.05f, 128},
                                       nb::Quant{0.1f, 128});
  om.model.main.operands[1].scale = 0.03f;  // the second input
  run(state, om, n, 3 * std::int64_t{n});
}

void softmax(benchmark::State& state, OperandType type, std::uint32_t batch, std::uint32_t channels) {
  const bool quant = type != OperandType::TENSOR_FLOAT32;
  const std::int64_t n = std::int64_t{batch} * channels;
  run(state, nb::softmax_model(type, batch, channels, quant ? nb::Quant{0.05f, 128} : nb::Quant{}), n,
      2 * (quant ? 1 : 4) * n);
}

constexpr std::uint32_t k16k = 1u << 14, k1m = 1u << 20;
constexpr auto F32 = OperandType::TENSOR_FLOAT32;
constexpr auto QU8 = OperandType::TENSOR_QUANT8_ASYMM;

void mul_f32_16k(benchmark::State& s) { binary(s, OperationType::MUL, F32, k16k); }
void mul_f32_1m(benchmark::State& s) { binary(s, OperationType::MUL, F32, k1m); }
void add_qu8_16k(benchmark::State& s) { binary(s, OperationType::ADD, QU8, k16k); }
void add_qu8_1m(benchmark::State& s) { binary(s, OperationType::ADD, QU8, k1m); }
void mul_qu8_1m(benchmark::State& s) { binary(s, OperationType::MUL, QU8, k1m); }
void add_qu8_16k_mixed_scales(benchmark::State& s) { add_mixed_scales(s, k16k); }
void softmax_f32_1x1000(benchmark::State& s) { softmax(s, F32, 1, 1000); }
void softmax_f32_64x1000(benchmark::State& s) { softmax(s, F32, 64, 1000); }
void softmax_qu8_1x1000(benchmark::State& s) { softmax(s, QU8, 1, 1000); }
void softmax_qu8_64x1000(benchmark::State& s) { softmax(s, QU8, 64, 1000); }

}  // namespace

BENCHMARK(mul_f32_16k);
BENCHMARK(mul_f32_1m);
BENCHMARK(add_qu8_16k);
BENCHMARK(add_qu8_1m);
BENCHMARK(mul_qu8_1m);
BENCHMARK(add_qu8_16k_mixed_scales);
BENCHMARK(softmax_f32_1x1000);
BENCHMARK(softmax_f32_64x1000);
BENCHMARK(softmax_qu8_1x1000);
BENCHMARK(softmax_qu8_64x1000);
