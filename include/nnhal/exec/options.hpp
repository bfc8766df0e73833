#pragma once
/// \file
/// Per-execution options: loop timeout, deadline, and which request shapes are allowed.

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>

#include "nnhal/exec/clock.hpp"
#include "nnhal/model/model.hpp"
#include "nnhal/util/trace.hpp"
#include "nnhal/validate/request_rows.hpp"

namespace nnhal {

/// Default time limit of each WHILE loop (HAL 1.3 LoopTimeoutDurationNs::DEFAULT).
inline constexpr std::chrono::nanoseconds kLoopTimeoutDefault{2'000'000'000};
/// Largest loop timeout (LoopTimeoutDurationNs::MAXIMUM); larger values are clamped to it.
inline constexpr std::chrono::nanoseconds kLoopTimeoutMaximum{15'000'000'000};

/// How late a loop timeout or a deadline may end an execution, beyond a bound counted in loop
/// iterations. The bound, for any pattern of iteration costs:
///
///   With a loop timeout or a deadline T, an execution whose time runs out inside a WHILE loop
///   ends with MISSED_DEADLINE_TRANSIENT no later than T + kLoopLimitSlack + 2 iterations of
///   the loop as it is running then. Each loop's timeout is counted in that loop's own
///   iterations (an outer loop notices its timeout when the inner loop's iteration of the outer
///   body ends); a deadline in iterations of the innermost loop running when it passes.
///   Outside loops the deadline is checked before every operation.
///
/// How (Execution::run_while): every iteration, after the condition and before the body, reads
/// the clock once, `coarse_now()` for a CoarseClock (SteadyClock on Linux: about 5 ns) and
/// `now()` for any other clock; once a coarse reading is within kCoarseClockLag of the limit,
/// `now()` too. So the time is up at the first check after it passed: at most the rest of the
/// iteration during which it passed, plus the condition of the next one, the reading itself and
/// the work of ending the execution. No iteration goes unchecked, so the cost of earlier
/// iterations does not matter.
///
/// What this assumes, and what it does not cover:
/// - the clock: a coarse reading is never later than now() and at most kCoarseClockLag earlier
///   (a coarse reading that trails further makes the loop later by the excess); for a clock
///   without coarse_now(), lateness includes its resolution (a millisecond tick counter may be
///   up to a tick late);
/// - an operation is never interrupted: a single kernel that runs for a long time delays the
///   check by its own duration (it is part of the iteration that runs it);
/// - the thread runs: time the operating system does not give the execution adds to the bound.
inline constexpr std::chrono::nanoseconds kLoopLimitSlack{20'000'000};

/// Options of one execution, for a clock type C.
template <Clock C = SteadyClock>
struct ExecuteOptions {
  /// Time limit of each WHILE operation (each loop instance measures its own time).
  std::chrono::nanoseconds loop_timeout = kLoopTimeoutDefault;
  /// When set, the execution fails with MISSED_DEADLINE_* once `C::now()` passes it.
  std::optional<typename C::time_point> deadline;
  /// Request validation (executeFenced disallows unspecified outputs).
  RequestValidationOptions request;
  /// Memory of driver-managed buffers, indexed by request pool: a pool with a token reads and
  /// writes `token_memory[pool]` (the device layer resolves tokens and checks their use). A
  /// token pool without an entry here fails the execution.
  std::span<const Memory> token_memory;
  /// When set, receives a span for the execution, each node it runs and each WHILE iteration
  /// (nnhal/util/trace.hpp). Not owned.
  TraceSink* trace = nullptr;
};

/// The loop timeout actually applied: negative values mean 0, larger ones the maximum.
constexpr std::chrono::nanoseconds effective_loop_timeout(std::chrono::nanoseconds t) noexcept {
  if (t < std::chrono::nanoseconds{0}) return std::chrono::nanoseconds{0};
  return t > kLoopTimeoutMaximum ? kLoopTimeoutMaximum : t;
}

}  // namespace nnhal
