// Control-flow overhead: a WHILE counter loop through the executor against the same loop
// written by hand, and IF dispatch. Counters report nanoseconds per iteration / per call. And
// how late a loop timeout or a deadline ends a loop whose iterations turn expensive
// (while_limit_lateness, against the bound of exec/options.hpp).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <utility>
#include <vector>

#include "nnhal/exec/prepared_model.hpp"
#include "../tests/control/control_flow_models.hpp"

// The kernels and the executor are compiled once, in the nnhal_default_kernels library
// (NNHAL_EXTERN_DEFAULT_KERNELS; see the top-level CMakeLists.txt).
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

/// The cheaper reading a WHILE loop takes every iteration (CLOCK_MONOTONIC_COARSE on Linux).
void coarse_clock_now(benchmark::State& state) {
  nnhal::SteadyClock clock;
  for (auto _ : state) benchmark::DoNotOptimize(clock.coarse_now());
  state.counters["ns_per_call"] = benchmark::Counter(static_cast<double>(state.iterations()),
                                                     benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["coarse"] = nnhal::SteadyClock::coarse_available() ? 1 : 0;
}

/// main(i0, limit, switch_at, x [rows, 1024]) =
///   WHILE (i < limit) i = (i < switch_at) ? i + 1 : i + 1 + 0 * FULLY_CONNECTED(x, w, b)[0, 0]
/// on TENSOR_FLOAT32 (w: 1024 x 1024): iterations are cheap until the counter reaches
/// switch_at, then each one multiplies rows x 1024 by 1024 x 1024 (about 10 ms for the rows
/// chosen below).
constexpr std::uint32_t kWidth = 1024;

nnhal::Model switching_model(std::uint32_t rows) {
  using nnhal::OperandType;
  using nnhal::OperationType;
  constexpr auto F32 = OperandType::TENSOR_FLOAT32;
  constexpr auto I32 = OperandType::TENSOR_INT32;
  const nnhal::OperandSpec one{{1}}, big{{rows, kWidth}};
  nnhal::ModelBuilder b;
  auto cond_b = b.add_subgraph<struct Cond, F32, F32, F32, F32>(one, one, one, big);
  const auto cond = [&] {
    const auto [i, limit, at, x] = cond_b.inputs();
    (void)at, (void)x;
    return cond_b.returns(cond_b.operation<OperationType::LESS, OperandType::TENSOR_BOOL8>(one, i, limit));
  }();
  const float k_one[1] = {1.0f}, k_zero[1] = {0.0f};
  auto cheap_b = b.add_subgraph<struct Cheap, F32, F32>(one, big);
  const auto cheap = cheap_b.returns(cheap_b.operation<OperationType::ADD, F32>(
      one, cheap_b.input<0>(), cheap_b.constant<F32>(k_one, one), cheap_b.scalar<OperandType::INT32>(0)));
  auto expensive_b = b.add_subgraph<struct Expensive, F32, F32>(one, big);
  const auto expensive = [&] {
    auto& e = expensive_b;
    const auto [i, x] = e.inputs();
    const auto act = e.scalar<OperandType::INT32>(0);
    const std::vector<float> w(std::size_t{kWidth} * kWidth, 1e-3f), bias(kWidth, 0.0f);
    const auto y = e.operation<OperationType::FULLY_CONNECTED, F32>(big, x, e.constant<F32>(w, {{kWidth, kWidth}}),
                                                                    e.constant<F32>(bias, {{kWidth}}), act);
    const std::int32_t begin[2] = {0, 0}, size[2] = {1, 1}, flat[1] = {1};
    const auto corner =
        e.operation<OperationType::SLICE, F32>({{1, 1}}, y, e.constant<I32>(begin, {{2}}), e.constant<I32>(size, {{2}}));
    const auto value = e.operation<OperationType::RESHAPE, F32>(one, corner, e.constant<I32>(flat, one));
    const auto nothing = e.operation<OperationType::MUL, F32>(one, value, e.constant<F32>(k_zero, one), act);
    const auto next = e.operation<OperationType::ADD, F32>(one, i, e.constant<F32>(k_one, one), act);
    return e.returns(e.operation<OperationType::ADD, F32>(one, next, nothing, act));
  }();
  auto body_b = b.add_subgraph<struct Body, F32, F32, F32, F32>(one, one, one, big);
  const auto body = [&] {
    const auto [i, limit, at, x] = body_b.inputs();
    (void)limit;
    const auto c = body_b.operation<OperationType::LESS, OperandType::TENSOR_BOOL8>(one, i, at);
    return body_b.returns(std::get<0>(body_b.if_(c, cheap, expensive, i, x)));
  }();
  const auto i0 = b.input<F32>(one);
  const auto limit = b.input<F32>(one);
  const auto at = b.input<F32>(one);
  const auto x = b.input<F32>(big);
  b.output(std::get<0>(b.while_(cond, body, i0, limit, at, x)));
  return std::move(b).model();
}

/// The switching model ready to run: pool = [i0, limit, switch_at, out, x...].
struct Switching {
  nnhal::PreparedModel prepared;
  nnhal::Execution<> execution;
  std::vector<float> pool;
  nnhal::Request request;

  static Switching make(std::uint32_t rows) {
    auto p = nnhal::PreparedModel::prepare(switching_model(rows));
    if (!p) Harness::throw_error(p.error());
    auto e = p->create_execution();
    if (!e) Harness::throw_error(e.error());
    const std::size_t n = std::size_t{rows} * kWidth;
    Switching s{std::move(*p), std::move(*e), std::vector<float>(4 + n, 1.0f), {}};
    s.request.pools.push_back({{reinterpret_cast<std::byte*>(s.pool.data()), s.pool.size() * 4}, 0});
    for (std::uint32_t k = 0; k < 3; ++k) s.request.inputs.push_back({false, {0, 4 * k, 4}, {}});
    s.request.inputs.push_back({false, {0, 16, static_cast<std::uint32_t>(4 * n)}, {}});
    s.request.outputs.push_back({false, {0, 12, 4}, {}});
    return s;
  }
  /// Runs the loop from 0 towards `limit`, switching at `switch_at`; returns the status and the
  /// wall time of the execution.
  std::pair<nnhal::Status, std::chrono::nanoseconds> run(float limit, float switch_at,
                                                          std::chrono::nanoseconds loop_timeout,
                                                          std::optional<std::chrono::nanoseconds> deadline) {
    pool[0] = 0.0f;
    pool[1] = limit;
    pool[2] = switch_at;
    nnhal::ExecuteOptions<> options;
    options.loop_timeout = loop_timeout;
    const auto start = std::chrono::steady_clock::now();
    if (deadline) options.deadline = start + *deadline;
    nnhal::Status s = execution.run(request, options);
    return {std::move(s), std::chrono::steady_clock::now() - start};
  }
};

/// How late the loop timeout and the deadline end the switching model, with the steady clock:
/// T = 100 ms, the switch from ~0.1 us iterations to ~10 ms ones at 16 points from 0.15 T to
/// 0.9 T; the worst lateness (end - start - T) of each, against the bound kLoopLimitSlack +
/// 2 expensive iterations. A measurement, not a pass/fail test.
void while_limit_lateness(benchmark::State& state) {
  using std::chrono::duration;
  using std::chrono::nanoseconds;
  constexpr nanoseconds kLimit{100'000'000};
  // Pick the rows for an expensive iteration of about 10 ms: time 4 of them with 16 rows, scale.
  std::uint32_t rows = 16;
  {
    Switching probe = Switching::make(rows);
    (void)probe.run(2.0f, 0.0f, nanoseconds{15'000'000'000}, {});  // warm up
    const auto [s, took] = probe.run(4.0f, 0.0f, nanoseconds{15'000'000'000}, {});
    if (!s) state.SkipWithError(s.error().c_str());
    const double per = static_cast<double>(took.count()) / 4.0;
    rows = static_cast<std::uint32_t>(std::clamp(static_cast<double>(rows) * 10e6 / per, 1.0, 4096.0));
  }
  Switching sw = Switching::make(rows);
  (void)sw.run(2.0f, 0.0f, nanoseconds{15'000'000'000}, {});  // warm up
  const auto expensive = sw.run(4.0f, 0.0f, nanoseconds{15'000'000'000}, {}).second / 4;
  const auto cheap = sw.run(200'000.0f, 1e9f, nanoseconds{15'000'000'000}, {}).second / 200'000;
  double worst_timeout = 0, worst_deadline = 0;
  bool all_missed = true;
  for (auto _ : state) {
    for (int k = 0; k < 16; ++k) {
      const double f = 0.15 + 0.75 * k / 15.0;
      const auto at = static_cast<float>(f * static_cast<double>(kLimit.count()) / static_cast<double>(cheap.count()));
      const auto [st, took] = sw.run(1e30f, at, kLimit, {});
      const auto [sd, took_d] = sw.run(1e30f, at, nanoseconds{15'000'000'000}, kLimit);
      all_missed = all_missed && !st && !sd && st.error().status() == nnhal::ErrorStatus::MISSED_DEADLINE_TRANSIENT &&
                   sd.error().status() == nnhal::ErrorStatus::MISSED_DEADLINE_TRANSIENT;
      worst_timeout = std::max(worst_timeout, duration<double, std::milli>(took - kLimit).count());
      worst_deadline = std::max(worst_deadline, duration<double, std::milli>(took_d - kLimit).count());
    }
  }
  if (!all_missed) state.SkipWithError("an execution did not end with MISSED_DEADLINE_TRANSIENT");
  const double slow_ms = duration<double, std::milli>(expensive).count();
  state.counters["rows"] = rows;
  state.counters["cheap_iter_ns"] = static_cast<double>(cheap.count());
  state.counters["slow_iter_ms"] = slow_ms;
  state.counters["worst_late_timeout_ms"] = worst_timeout;
  state.counters["worst_late_deadline_ms"] = worst_deadline;
  state.counters["bound_ms"] = duration<double, std::milli>(nnhal::kLoopLimitSlack).count() + 2 * slow_ms;
}

}  // namespace

BENCHMARK(steady_clock_now);
BENCHMARK(coarse_clock_now);
BENCHMARK(while_limit_lateness)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(while_counter)->Arg(1000)->Arg(100000);
BENCHMARK(while_counter_native)->Arg(1000)->Arg(100000);
BENCHMARK(if_dispatch);
