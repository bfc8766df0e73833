#pragma once
/// \file
/// Per-execution options: loop timeout, deadline, and which request shapes are allowed.

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>

#include "nnhal/exec/clock.hpp"
#include "nnhal/model/model.hpp"
#include "nnhal/validate/request.hpp"

namespace nnhal {

/// Default time limit of each WHILE loop (HAL 1.3 LoopTimeoutDurationNs::DEFAULT).
inline constexpr std::chrono::nanoseconds kLoopTimeoutDefault{2'000'000'000};
/// Largest loop timeout (LoopTimeoutDurationNs::MAXIMUM); larger values are clamped to it.
inline constexpr std::chrono::nanoseconds kLoopTimeoutMaximum{15'000'000'000};

/// A WHILE loop reads the clock at most once per iteration, and less often while iterations
/// are short: it aims at one reading per kClockCheckInterval, never more than kMaxClockStride
/// iterations apart (see Execution::run_while).
inline constexpr std::chrono::nanoseconds kClockCheckInterval{1'000};
inline constexpr std::uint32_t kMaxClockStride = 1024;

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
};

/// The loop timeout actually applied: negative values mean 0, larger ones the maximum.
constexpr std::chrono::nanoseconds effective_loop_timeout(std::chrono::nanoseconds t) noexcept {
  if (t < std::chrono::nanoseconds{0}) return std::chrono::nanoseconds{0};
  return t > kLoopTimeoutMaximum ? kLoopTimeoutMaximum : t;
}

}  // namespace nnhal
