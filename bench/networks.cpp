// Whole-network benchmarks: MobileNet v1 / v2 as defined by the peers' MOBILENET.md (same
// tables, same deterministic weights; examples/mobilenet/network.hpp builds them), on one
// thread and, as `<case>_2threads`, with the kernels on a nnhal::ThreadPool of 2 (the peers'
// `--threads 2`; compare does not pair these: run the peers with --threads 2 beside them). Each
// case times one execution of a prepared model: the model is built and prepared
// once outside the loop and one Execution is reused across iterations, timing
// Execution::run(request) (request validation, binding, every kernel), as the other model
// benchmarks do (bench_models.hpp). DevicePreparedModel::execute adds a slot, clock reads and
// the ExecutionResult's output shapes on top of it. The 8-bit networks get their input quantized
// before the loop, as the peers do. Counter FLOPS: 2 x the multiply-accumulates of the
// convolution, depthwise and fully connected layers (the peers' convention).

#include <benchmark/benchmark.h>

#include <cstring>
#include <memory>
#include <vector>

#include "../examples/mobilenet/network.hpp"
#include "bench_models.hpp"
#include "nnhal/exec/thread_pool.hpp"

namespace {

namespace mn = mobilenet;
namespace nb = nnhal::bench;

void network(benchmark::State& state, mn::NetworkDef (*define)(), mn::Precision precision, std::size_t threads = 1) {
  const mn::Network net = mn::build_network(define(), precision);
  nb::OwnedRequest req(net.model);
  const std::vector<float> x = mn::generate_input(net.def);
  auto* input = reinterpret_cast<std::uint8_t*>(req.pool(0).data());
  if (precision == mn::Precision::f32)
    std::memcpy(input, x.data(), x.size() * sizeof(float));
  else
    mn::quantize_input(x.data(), x.size(), precision, input);
  nnhal::ThreadPool pool(threads);
  nnhal::PrepareOptions options;
  if (threads > 1) options.parallel = &pool;
  if (!nb::run_model_loop(state, net.model, req, options)) return;
  double macs = 0;
  for (const mn::Layer& l : net.def.layers) macs += l.macs();
  state.counters["FLOPS"] = benchmark::Counter(2.0 * macs, benchmark::Counter::kIsIterationInvariantRate,
                                               benchmark::Counter::kIs1000);
}

void mobilenet_v1_f32(benchmark::State& state) { network(state, mn::mobilenet_v1, mn::Precision::f32); }
void mobilenet_v2_f32(benchmark::State& state) { network(state, mn::mobilenet_v2, mn::Precision::f32); }
void mobilenet_v1_qu8(benchmark::State& state) { network(state, mn::mobilenet_v1, mn::Precision::qu8); }
void mobilenet_v1_qs8(benchmark::State& state) { network(state, mn::mobilenet_v1, mn::Precision::qs8); }
void mobilenet_v1_f32_2threads(benchmark::State& state) { network(state, mn::mobilenet_v1, mn::Precision::f32, 2); }
void mobilenet_v2_f32_2threads(benchmark::State& state) { network(state, mn::mobilenet_v2, mn::Precision::f32, 2); }
void mobilenet_v1_qu8_2threads(benchmark::State& state) { network(state, mn::mobilenet_v1, mn::Precision::qu8, 2); }
void mobilenet_v1_qs8_2threads(benchmark::State& state) { network(state, mn::mobilenet_v1, mn::Precision::qs8, 2); }

}  // namespace

BENCHMARK(mobilenet_v1_f32)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(mobilenet_v2_f32)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(mobilenet_v1_qu8)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(mobilenet_v1_qs8)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(mobilenet_v1_f32_2threads)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(mobilenet_v2_f32_2threads)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(mobilenet_v1_qu8_2threads)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(mobilenet_v1_qs8_2threads)->Unit(benchmark::kMicrosecond)->UseRealTime();
