// The bound on loop timeouts and deadlines (exec/options.hpp, kLoopLimitSlack): with a limit T,
// an execution whose time runs out in a WHILE loop ends with MISSED_DEADLINE_TRANSIENT no later
// than T + kLoopLimitSlack + 2 iterations of the loop as it is running then, for any pattern of
// iteration costs. Deterministic: simulated clocks in which each per-iteration reading ends an
// iteration of a given cost, so a body that turns expensive at iteration k is a clock whose
// steps grow at its k-th reading; and a separate check that a loop reads the clock once per
// iteration, which is what ties the simulation to the executor.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "control_flow_models.hpp"
#include "nnhal/exec/prepared_model.hpp"

using nnhal::ModelBuilder;
using nnhal::OperandType;
using nnhal::OperationType;
namespace cf = nnhal::test::cf;
using cf::kBool;
using cf::kI32;
using cf::one_element;
using namespace std::chrono_literals;
using ns = std::chrono::nanoseconds;

namespace {

/// Simulated time for loops. Reading k (counting the readings a loop makes once per iteration:
/// coarse_now() for the coarse variant, now() for the other) first advances time by the cost of
/// the iteration that just ran: `cheap` for k < `switch_at`, `expensive` from then on. Coarse
/// readings are the time rounded down to `resolution` (a timer tick), never later than now()
/// and less than kCoarseClockLag earlier. now() in the coarse variant costs nothing and is
/// counted apart.
struct Costs {
  ns cheap{1000};
  ns expensive{10'000'000};
  std::uint64_t switch_at = UINT64_MAX;
  ns resolution{0};
};

struct SimState {
  Costs costs;
  ns time{0};
  std::uint64_t loop_readings = 0;   ///< readings that end an iteration
  std::uint64_t exact_readings = 0;  ///< now() readings of the coarse variant

  ns step() {
    time += loop_readings++ < costs.switch_at ? costs.cheap : costs.expensive;
    return time;
  }
  /// The cost of the last iteration that ran (the loop "as it is running then").
  ns current_cost() const { return loop_readings - 1 < costs.switch_at ? costs.cheap : costs.expensive; }
};

using time_point = nnhal::ManualClock::time_point;

/// A CoarseClock: coarse_now() ends an iteration, now() only looks.
class CoarseSimClock {
 public:
  using time_point = ::time_point;
  explicit CoarseSimClock(SimState* s) : s_(s) {}
  time_point now() noexcept {
    ++s_->exact_readings;
    return {s_->time};
  }
  time_point coarse_now() noexcept {
    const ns t = s_->step();
    if (s_->costs.resolution == ns{0}) return {t};
    return {t - t % s_->costs.resolution};
  }

 private:
  SimState* s_;
};
static_assert(nnhal::CoarseClock<CoarseSimClock>);

/// A clock without coarse_now(): every now() but the first of a loop ends an iteration. The
/// loop's first reading (its start) is told apart by `starts`: readings the test knows are not
/// iteration ends are not charged (see the models: one start per loop instance).
class PlainSimClock {
 public:
  using time_point = ::time_point;
  explicit PlainSimClock(SimState* s) : s_(s) {}
  time_point now() noexcept { return {s_->step()}; }

 private:
  SimState* s_;
};
static_assert(nnhal::Clock<PlainSimClock> && !nnhal::CoarseClock<PlainSimClock>);

/// cond(i, limit) = i < limit; body = (i < pivot) ? i + 1 : i + 2 through an IF (the generic
/// iteration path, with control flow in the body), tagged Tag.
template <class Tag>
auto if_body(ModelBuilder& b, std::int32_t pivot) {
  const auto plus1 = cf::plus_graph<cf::Part<Tag, 1>>(b, 1);
  const auto plus2 = cf::plus_graph<cf::Part<Tag, 2>>(b, 2);
  auto body = b.add_subgraph<Tag, kI32, kI32>(one_element(), one_element());
  const auto i = body.template input<0>();
  const std::int32_t p[1] = {pivot};
  const auto c = body.template operation<OperationType::LESS, kBool>(one_element(), i,
                                                                     body.template constant<kI32>(p, one_element()));
  return body.returns(std::get<0>(body.if_(c, plus1, plus2, i)));
}

/// main(i0, limit) = WHILE (i < limit) i = (i < pivot) ? i + 1 : i + 2.
nnhal::Model if_in_while_model() {
  ModelBuilder b;
  const auto cond = cf::less_condition<struct Cond>(b);
  const auto body = if_body<struct Body>(b, 5);
  const auto i0 = b.input<kI32>(one_element());
  const auto limit = b.input<kI32>(one_element());
  b.output(std::get<0>(b.while_(cond, body, i0, limit)));
  return std::move(b).model();
}

/// main(j0, limit) = WHILE (j < limit) { j = WHILE (i < j + inner) i = i + 1 (from i = j) }:
/// every outer iteration runs `inner` inner iterations.
nnhal::Model nested_model(std::int32_t inner) {
  ModelBuilder b;
  const auto inner_cond = cf::less_condition<struct InnerCond>(b);
  const auto inner_body = cf::add_body<struct InnerBody>(b, 1);
  const auto outer_cond = cf::less_condition<struct OuterCond>(b);
  auto outer = b.add_subgraph<struct OuterBody, kI32, kI32>(one_element(), one_element());
  const auto outer_body = [&] {
    const auto j = outer.input<0>();
    const std::int32_t n[1] = {inner};
    const auto target = outer.operation<OperationType::ADD, kI32>(
        one_element(), j, outer.constant<kI32>(n, one_element()), outer.scalar<OperandType::INT32>(0));
    return outer.returns(std::get<0>(outer.while_(inner_cond, inner_body, j, target)));
  }();
  const auto j0 = b.input<kI32>(one_element());
  const auto limit = b.input<kI32>(one_element());
  b.output(std::get<0>(b.while_(outer_cond, outer_body, j0, limit)));
  return std::move(b).model();
}

/// main(c, x, limit) = c ? (WHILE (x < limit) x = (x < 5) ? x + 1 : x + 2) : x - 100.
nnhal::Model if_while_if_model() {
  ModelBuilder b;
  const auto cond = cf::less_condition<struct Cond>(b);
  const auto body = if_body<struct Body>(b, 5);
  auto then_b = b.add_subgraph<struct Then, kI32, kI32>(one_element(), one_element());
  const auto then_g = [&] {
    const auto [x, limit] = then_b.inputs();
    return then_b.returns(std::get<0>(then_b.while_(cond, body, x, limit)));
  }();
  auto else_b = b.add_subgraph<struct Else, kI32, kI32>(one_element(), one_element());
  const auto else_g = [&] {
    const std::int32_t k[1] = {100};
    return else_b.returns(else_b.operation<OperationType::SUB, kI32>(
        one_element(), else_b.input<0>(), else_b.constant<kI32>(k, one_element()), else_b.scalar<OperandType::INT32>(0)));
  }();
  const auto c = b.input<kBool>(one_element());
  const auto x = b.input<kI32>(one_element());
  const auto limit = b.input<kI32>(one_element());
  b.output(std::get<0>(b.if_(c, then_g, else_g, x, limit)));
  return std::move(b).model();
}

/// Runs `model` (int32 [1] inputs, one int32 [1] output; a leading BOOL8 input takes the first
/// byte of its int32 slot) on an execution reading clock `C` over `state`.
template <class C>
nnhal::Status run(const nnhal::Model& model, SimState& state, std::vector<std::int32_t> inputs,
                  const nnhal::ExecuteOptions<C>& options, std::int32_t* result = nullptr) {
  auto prepared = nnhal::PreparedModel::prepare(model);
  REQUIRE_MESSAGE(prepared.has_value(), std::string(prepared ? "" : prepared.error().c_str()));
  auto execution = prepared->template create_execution<C>(C(&state));
  REQUIRE(execution.has_value());
  std::vector<std::int32_t> io = inputs;
  io.push_back(-1);
  nnhal::Request r;
  r.pools.push_back({{reinterpret_cast<std::byte*>(io.data()), io.size() * 4}, 0});
  const auto& main_inputs = model.main.inputIndexes;
  for (std::uint32_t k = 0; k < inputs.size(); ++k) {
    const bool boolean = model.main.operands[main_inputs[k]].type == kBool;
    r.inputs.push_back({false, {0, 4 * k, boolean ? 1u : 4u}, {}});
  }
  r.outputs.push_back({false, {0, static_cast<std::uint32_t>(4 * inputs.size()), 4}, {}});
  const nnhal::Status s = execution->run(r, options);
  if (result != nullptr) *result = io.back();
  return s;
}

/// Checks that `s` is MISSED_DEADLINE_TRANSIENT, not before `limit`, and within the bound:
/// limit + kLoopLimitSlack + 2 iterations of cost `iteration` (the loop as it runs at the end).
void check_within_bound(const nnhal::Status& s, const SimState& state, ns limit, ns iteration) {
  REQUIRE_FALSE(s.has_value());
  CHECK(s.error().status() == nnhal::ErrorStatus::MISSED_DEADLINE_TRANSIENT);
  CAPTURE(state.time.count());
  CAPTURE(limit.count());
  CAPTURE(iteration.count());
  CHECK(state.time > limit);
  CHECK(state.time <= limit + nnhal::kLoopLimitSlack + 2 * iteration);
}

const double kSwitchFractions[] = {0.0, 0.15, 0.3, 0.5, 0.75, 0.9, 0.99, 1.2};

}  // namespace

TEST_CASE("loop limits: a loop reads the clock once per iteration, the exact clock only near its limit") {
  for (const bool if_body_model : {false, true}) {
    CAPTURE(if_body_model);
    const nnhal::Model model = if_body_model ? if_in_while_model() : cf::while_counter_model();
    SimState state;
    state.costs.cheap = 1us;
    state.costs.resolution = 4ms;
    std::int32_t result = 0;
    nnhal::ExecuteOptions<CoarseSimClock> options;
    options.loop_timeout = 1s;
    REQUIRE(run<CoarseSimClock>(model, state, {0, 100'000}, options, &result).has_value());
    std::int32_t want = 0, iterations = 0;
    for (; want < 100'000; ++iterations) want += if_body_model && want >= 5 ? 2 : 1;
    CHECK(result == want);
    // One coarse reading per iteration that continues the loop (the final condition is false).
    CHECK(state.loop_readings == static_cast<std::uint64_t>(iterations));
    CHECK(state.exact_readings == 1);  // the loop's start; 100 ms of iterations, limit 1 s
  }
  // Near the limit the exact clock is read every iteration, and not before.
  SimState state;
  state.costs.cheap = 1us;
  state.costs.resolution = 4ms;
  nnhal::ExecuteOptions<CoarseSimClock> options;
  options.loop_timeout = 100ms;
  const auto s = run<CoarseSimClock>(cf::while_counter_model(), state, {0, 2'000'000'000}, options);
  check_within_bound(s, state, 100ms, 1us);
  const std::uint64_t near = (nnhal::kCoarseClockLag + state.costs.resolution) / state.costs.cheap + 2;
  CHECK(state.exact_readings <= 1 + near);
  CHECK(state.exact_readings >= (nnhal::kCoarseClockLag - state.costs.resolution) / state.costs.cheap);
}

TEST_CASE("loop limits: a body whose cost changes at iteration k ends within the bound, loop timeout") {
  for (const bool if_body_model : {false, true}) {
    const nnhal::Model model = if_body_model ? if_in_while_model() : cf::while_counter_model();
    for (const ns cheap : {ns{100}, ns{1us}, ns{20us}}) {
      for (const ns resolution : {ns{0}, ns{1ms}, ns{4ms}, ns{10ms}}) {
        for (const double f : kSwitchFractions) {
          const ns timeout = cheap < 1us ? ns{5ms} : ns{100ms};
          SimState state;
          state.costs = {cheap, 10ms, static_cast<std::uint64_t>(f * static_cast<double>(timeout / cheap)), resolution};
          CAPTURE(if_body_model);
          CAPTURE(cheap.count());
          CAPTURE(resolution.count());
          CAPTURE(f);
          nnhal::ExecuteOptions<CoarseSimClock> options;
          options.loop_timeout = timeout;
          const auto s = run<CoarseSimClock>(model, state, {0, 2'000'000'000}, options);
          check_within_bound(s, state, timeout, state.current_cost());
          CHECK(std::string(s.error().message()).find("timeout") != std::string::npos);
        }
      }
    }
  }
}

TEST_CASE("loop limits: the same with a clock without coarse_now(), and with a deadline") {
  for (const double f : kSwitchFractions) {
    CAPTURE(f);
    const ns timeout = 100ms;
    {
      SimState state;
      state.costs = {1us, 10ms, static_cast<std::uint64_t>(f * 100'000), ns{0}};
      nnhal::ExecuteOptions<PlainSimClock> options;
      options.loop_timeout = timeout;
      // The loop's start reading is an iteration end too in this clock: the bound still holds,
      // measured from that reading.
      const auto s = run<PlainSimClock>(cf::while_counter_model(), state, {0, 2'000'000'000}, options);
      check_within_bound(s, state, timeout + state.costs.cheap, state.current_cost());
    }
    for (const ns resolution : {ns{0}, ns{4ms}}) {
      CAPTURE(resolution.count());
      SimState state;
      state.costs = {1us, 10ms, static_cast<std::uint64_t>(f * 100'000), resolution};
      nnhal::ExecuteOptions<CoarseSimClock> options;
      options.loop_timeout = 15s;
      options.deadline = time_point{timeout};
      const auto s = run<CoarseSimClock>(if_in_while_model(), state, {0, 2'000'000'000}, options);
      check_within_bound(s, state, timeout, state.current_cost());
      CHECK(std::string(s.error().message()).find("deadline") != std::string::npos);
    }
  }
}

TEST_CASE("loop limits: nested loops, each limit in the iterations of its own loop, a deadline in the innermost's") {
  constexpr std::int32_t kInner = 10;
  const nnhal::Model model = nested_model(kInner);
  for (const double f : kSwitchFractions) {
    CAPTURE(f);
    const ns timeout = 100ms;
    // Every reading (one per inner iteration, one per outer iteration) ends an iteration of
    // the innermost loop running: an outer iteration costs kInner + 1 of them.
    const auto switch_at = static_cast<std::uint64_t>(f * 100'000);
    {
      SimState state;
      state.costs = {1us, 1ms, switch_at, ns{4ms}};
      nnhal::ExecuteOptions<CoarseSimClock> options;
      options.loop_timeout = timeout;
      const auto s = run<CoarseSimClock>(model, state, {0, 2'000'000'000}, options);
      check_within_bound(s, state, timeout, (kInner + 1) * state.current_cost());
    }
    {
      // A deadline: noticed by the inner loop, within 2 of its own iterations.
      SimState state;
      state.costs = {1us, 1ms, switch_at, ns{4ms}};
      nnhal::ExecuteOptions<CoarseSimClock> options;
      options.loop_timeout = 15s;
      options.deadline = time_point{timeout};
      const auto s = run<CoarseSimClock>(model, state, {0, 2'000'000'000}, options);
      check_within_bound(s, state, timeout, state.current_cost());
      CHECK(std::string(s.error().message()).find("deadline") != std::string::npos);
    }
  }
  // An inner loop that never ends: its own timeout stops it, counted from its own start.
  SimState state;
  state.costs = {1us, 1ms, 30'000, ns{4ms}};
  nnhal::ExecuteOptions<CoarseSimClock> options;
  options.loop_timeout = 100ms;
  const auto s = run<CoarseSimClock>(nested_model(2'000'000'000), state, {0, 2'000'000'000}, options);
  check_within_bound(s, state, options.loop_timeout, state.current_cost());
}

TEST_CASE("loop limits: IF inside WHILE inside IF") {
  const nnhal::Model model = if_while_if_model();
  {
    SimState state;
    std::int32_t result = 0;
    REQUIRE(run<CoarseSimClock>(model, state, {1, 0, 20}, {}, &result).has_value());
    CHECK(result == 21);  // 0..5 by 1, then by 2: 5, 7, ..., 21
    REQUIRE(run<CoarseSimClock>(model, state, {0, 0, 20}, {}, &result).has_value());
    CHECK(result == -100);
  }
  for (const double f : kSwitchFractions) {
    CAPTURE(f);
    for (const bool deadline : {false, true}) {
      CAPTURE(deadline);
      SimState state;
      state.costs = {1us, 10ms, static_cast<std::uint64_t>(f * 100'000), ns{4ms}};
      nnhal::ExecuteOptions<CoarseSimClock> options;
      options.loop_timeout = deadline ? ns{15s} : ns{100ms};
      if (deadline) options.deadline = time_point{100ms};
      const auto s = run<CoarseSimClock>(model, state, {1, 0, 2'000'000'000}, options);
      check_within_bound(s, state, 100ms, state.current_cost());
    }
  }
}
