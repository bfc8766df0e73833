// Control-flow overhead: a WHILE counter loop through the executor against the same loop
// written by hand, and IF dispatch. Counters report nanoseconds per iteration / per call.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "nnhal/exec/prepared_model.hpp"
#include "../tests/control/control_flow_models.hpp"

// The kernels and the executor are compiled once, in bench/kernels.cpp.
NNHAL_EXTERN_KERNEL_SET(nnhal::AllKernels);
NNHAL_EXTERN_EXECUTION(nnhal::SteadyClock);

namespace {

/// A prepared model with an execution and a request over one int32 pool.
struct Harness {
  nnhal::PreparedModel prepared;
  nnhal::Execution<> execution;
  std::vector<std::int32_t> pool;
  nnhal::Request request;

  static Harness make(const nnhal::Model& model, std::size_t inputs) {
    auto p = nnhal::PreparedModel::prepare(model);
    if (!p) throw_error(p.error());
    auto e = p->create_execution();
    if (!e) throw_error(e.error());
    Harness h{std::move(*p), std::move(*e), std::vector<std::int32_t>(inputs + 1, 0), {}};
    h.request.pools.push_back({{reinterpret_cast<std::byte*>(h.pool.data()), h.pool.size() * 4}, 0});
    for (std::uint32_t k = 0; k < inputs; ++k) h.request.inputs.push_back({false, {0, 4 * k, 4}, {}});
    h.request.outputs.push_back({false, {0, static_cast<std::uint32_t>(4 * inputs), 4}, {}});
    return h;
  }
  [[noreturn]] static void throw_error(const nnhal::Error& e) {
    std::fprintf(stderr, "benchmark setup failed: %s\n", e.c_str());
    std::abort();
  }
};

void while_counter(benchmark::State& state) {
  const auto n = static_cast<std::int32_t>(state.range(0));
  Harness h = Harness::make(nnhal::test::cf::while_counter_model(), 2);
  for (auto _ : state) {
    h.pool[0] = 0;
    h.pool[1] = n;
    auto s = h.execution.run(h.request);
    if (!s || h.pool[2] != n) state.SkipWithError("wrong result");
    benchmark::DoNotOptimize(h.pool.data());
  }
  state.counters["ns_per_iter"] = benchmark::Counter(static_cast<double>(state.iterations()) * n,
                                                     benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

/// The same loop by hand: an int32 [1] counter compared and incremented through memory.
void while_counter_native(benchmark::State& state) {
  const auto n = static_cast<std::int32_t>(state.range(0));
  std::int32_t buffer[3];
  for (auto _ : state) {
    buffer[0] = 0;
    buffer[1] = n;
    std::int32_t i = buffer[0];
    for (;;) {
      std::uint8_t cond = i < buffer[1];
      benchmark::DoNotOptimize(cond);
      if (!cond) break;
      i = i + 1;
      benchmark::DoNotOptimize(i);
    }
    buffer[2] = i;
    benchmark::DoNotOptimize(buffer);
  }
  state.counters["ns_per_iter"] = benchmark::Counter(static_cast<double>(state.iterations()) * n,
                                                     benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

/// One IF per execution: condition, branch ADD/SUB on int32 [1].
void if_dispatch(benchmark::State& state) {
  Harness h = Harness::make(nnhal::test::cf::if_model(), 2);
  std::int32_t flip = 0;
  for (auto _ : state) {
    h.pool[0] = flip ^= 1;
    h.pool[1] = 41;
    auto s = h.execution.run(h.request);
    if (!s) state.SkipWithError("execution failed");
    benchmark::DoNotOptimize(h.pool.data());
  }
  state.counters["ns_per_call"] = benchmark::Counter(static_cast<double>(state.iterations()),
                                                     benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

/// For scale: one reading of the default clock (std::chrono::steady_clock), which a WHILE loop
/// would pay every iteration if it read the clock that often.
void steady_clock_now(benchmark::State& state) {
  nnhal::SteadyClock clock;
  for (auto _ : state) benchmark::DoNotOptimize(clock.now());
  state.counters["ns_per_call"] = benchmark::Counter(static_cast<double>(state.iterations()),
                                                     benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

}  // namespace

BENCHMARK(steady_clock_now);
BENCHMARK(while_counter)->Arg(1000)->Arg(100000);
BENCHMARK(while_counter_native)->Arg(1000)->Arg(100000);
BENCHMARK(if_dispatch);
