// IF and WHILE end to end: both branches, zero and many iterations, loop timeouts through a
// manual clock (no sleeping), and nesting.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "control_flow_models.hpp"
#include "nnhal/exec/prepared_model.hpp"
#include "../support/run_model.hpp"

using nnhal::OperandType;
using nnhal::OperationType;
namespace t = nnhal::test;
using namespace std::chrono_literals;

namespace {
/// Runs a model whose inputs and single output are TENSOR_INT32 / BOOL8 [1] values.
template <nnhal::Clock C = nnhal::SteadyClock>
struct ScalarRunner {
  nnhal::PreparedModel prepared;
  nnhal::Execution<C> execution;
  std::vector<std::int32_t> io;

  static ScalarRunner make(const nnhal::Model& model, C clock = C{}) {
    auto p = nnhal::PreparedModel::prepare(model);
    REQUIRE_MESSAGE(p.has_value(), std::string(p ? "" : p.error().c_str()));
    auto e = p->template create_execution<C>(std::move(clock));
    REQUIRE(e.has_value());
    return ScalarRunner{std::move(*p), std::move(*e), {}};
  }

  nnhal::Status run(std::vector<std::int32_t> inputs, const nnhal::ExecuteOptions<C>& options = {}) {
    io = inputs;
    io.push_back(-12345);  // output slot
    nnhal::Request r;
    r.pools.push_back({{reinterpret_cast<std::byte*>(io.data()), io.size() * 4}, 0});
    for (std::uint32_t k = 0; k < inputs.size(); ++k) r.inputs.push_back({false, {0, 4 * k, 4}, {}});
    r.outputs.push_back({false, {0, static_cast<std::uint32_t>(4 * inputs.size()), 4}, {}});
    return execution.run(r, options);
  }
  std::int32_t result() const { return io.back(); }
};
}  // namespace

TEST_CASE("IF runs the branch the condition selects") {
  auto r = ScalarRunner<>::make(t::cf::if_model());
  REQUIRE(r.run({1, 41}).has_value());
  CHECK(r.result() == 42);
  REQUIRE(r.run({0, 41}).has_value());
  CHECK(r.result() == 40);
  REQUIRE(r.run({7, 0}).has_value());  // any non-zero byte is true
  CHECK(r.result() == 1);
}

TEST_CASE("WHILE counts, including zero iterations and a million iterations") {
  auto r = ScalarRunner<nnhal::ManualClock>::make(t::cf::while_counter_model());
  for (std::int32_t limit : {0, 1, 2, 17, 1'000'000}) {
    CAPTURE(limit);
    REQUIRE(r.run({0, limit}).has_value());
    CHECK(r.result() == limit);
  }
  REQUIRE(r.run({50, 10}).has_value());  // condition false at once: the input comes back
  CHECK(r.result() == 50);
}

TEST_CASE("the loop timeout ends an endless loop with MISSED_DEADLINE_TRANSIENT, deterministically") {
  // Every clock reading advances time by 1 ms; the loop may run for 10 ms.
  auto r = ScalarRunner<nnhal::ManualClock>::make(t::cf::while_counter_model(), nnhal::ManualClock(1ms));
  nnhal::ExecuteOptions<nnhal::ManualClock> options;
  options.loop_timeout = 10ms;
  const auto s = r.run({0, 1'000'000'000}, options);
  REQUIRE_FALSE(s.has_value());
  CHECK(s.error().status() == nnhal::ErrorStatus::MISSED_DEADLINE_TRANSIENT);
  // One reading when the loop starts, then exactly one per iteration: readings at 1..11 ms,
  // and the one at 11 ms is past the limit.
  CHECK(r.execution.clock().readings() == 12);
  CHECK(r.execution.output_shapes().empty());
}

namespace {
/// A clock that moves 1 ns per reading (iterations look very fast) until `jump_after` readings,
/// then jumps by 10 s at once: the loop must stop at the first reading past its timeout.
class JumpingClock {
 public:
  using time_point = nnhal::ManualClock::time_point;
  explicit JumpingClock(std::uint64_t jump_after = 0) : jump_after_(jump_after) {}
  time_point now() noexcept {
    ++readings_;
    now_.since_start += readings_ == jump_after_ ? std::chrono::nanoseconds(10s) : 1ns;
    return now_;
  }
  std::uint64_t readings() const noexcept { return readings_; }

 private:
  time_point now_{};
  std::uint64_t jump_after_;
  std::uint64_t readings_ = 0;
};
}  // namespace

TEST_CASE("a clock without coarse_now() is read once per iteration") {
  auto r = ScalarRunner<JumpingClock>::make(t::cf::while_counter_model());
  REQUIRE(r.run({0, 1'000'000}).has_value());
  CHECK(r.result() == 1'000'000);
  CHECK(r.execution.clock().readings() == 1 + 1'000'000);  // the loop's start, then every iteration
}

TEST_CASE("a WHILE whose clock jumps past the timeout stops at that reading") {
  for (std::uint64_t jump : {2u, 5u, 11u, 40u}) {
    CAPTURE(jump);
    auto r = ScalarRunner<JumpingClock>::make(t::cf::while_counter_model(), JumpingClock(jump));
    const auto s = r.run({0, 1'000'000'000});
    REQUIRE_FALSE(s.has_value());
    CHECK(s.error().status() == nnhal::ErrorStatus::MISSED_DEADLINE_TRANSIENT);
    CHECK(r.execution.clock().readings() == jump);
  }
}

TEST_CASE("loop timeouts above 15 s are clamped to 15 s; the default is 2 s") {
  auto r = ScalarRunner<nnhal::ManualClock>::make(t::cf::while_counter_model(), nnhal::ManualClock(1s));
  nnhal::ExecuteOptions<nnhal::ManualClock> options;
  options.loop_timeout = 100s;
  auto s = r.run({0, 1'000'000'000}, options);
  REQUIRE_FALSE(s.has_value());
  CHECK(r.execution.clock().readings() == 17);  // start + 16 iterations (the 16th is past 15 s)
  const auto before = r.execution.clock().readings();
  s = r.run({0, 1'000'000'000});
  REQUIRE_FALSE(s.has_value());
  CHECK(r.execution.clock().readings() - before == 4);  // start + 3 (the 3rd is past 2 s)
}

TEST_CASE("a deadline that has passed fails before running; one that passes mid-loop stops it") {
  auto r = ScalarRunner<nnhal::ManualClock>::make(t::cf::while_counter_model(), nnhal::ManualClock(1ms));
  nnhal::ExecuteOptions<nnhal::ManualClock> options;
  options.deadline = nnhal::ManualClock::time_point{};  // now is already later after a reading
  r.execution.clock().advance(1ms);
  auto s = r.run({0, 5}, options);
  REQUIRE_FALSE(s.has_value());
  CHECK(s.error().status() == nnhal::ErrorStatus::MISSED_DEADLINE_PERSISTENT);
  options.deadline = nnhal::ManualClock::time_point{50ms};
  s = r.run({0, 1'000'000'000}, options);
  REQUIRE_FALSE(s.has_value());
  CHECK(s.error().status() == nnhal::ErrorStatus::MISSED_DEADLINE_TRANSIENT);
}
