#pragma once
/// \file
/// What every execution mode of the device layer takes and gives back (HAL13.md c.3, c.4, g):
/// MeasureTiming, a deadline and a loop timeout in; status, output shapes and Timing out; and
/// the callback objects of asynchronous and fenced execution.

#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "nnhal/core/enums.hpp"
#include "nnhal/core/result.hpp"
#include "nnhal/exec/clock.hpp"
#include "nnhal/exec/options.hpp"
#include "nnhal/model/model.hpp"

namespace nnhal {

/// Arguments of one execution, whatever the mode.
template <Clock C = SteadyClock>
struct ExecutionArgs {
  MeasureTiming measure = MeasureTiming::NO;
  /// Absent: no deadline. Passed before the execution starts: MISSED_DEADLINE_PERSISTENT;
  /// reached while it runs: MISSED_DEADLINE_TRANSIENT.
  std::optional<typename C::time_point> deadline;
  /// Time limit of each WHILE loop; absent = 2 s, larger values are clamped to 15 s.
  std::optional<std::chrono::nanoseconds> loop_timeout;
};

/// The outcome of one execution. `output_shapes` is non-empty only for success and
/// OUTPUT_INSUFFICIENT_SIZE; `timing` is measured only when asked and successful (else both
/// fields are UINT64_MAX).
struct ExecutionResult {
  Status status;
  std::vector<OutputShape> output_shapes;
  Timing timing;

  ErrorStatus error_status() const noexcept { return status ? ErrorStatus::NONE : status.error().status(); }
};

/// Receives the result of an asynchronous execution, exactly once (IExecutionCallback).
class ExecutionCallback {
 public:
  virtual ~ExecutionCallback() = default;
  virtual void notify(ExecutionResult result) = 0;
};

/// What IFencedExecutionCallback::getExecutionInfo returns.
struct FencedExecutionInfo {
  ErrorStatus status = ErrorStatus::GENERAL_FAILURE;
  Timing timing_launched;  ///< from the executeFenced call until the fence is signalled
  Timing timing_fenced;    ///< from when the waited fences were signalled until then
};

/// Microseconds between two readings of a clock, as HAL Timing reports them.
template <class D>
std::uint64_t to_microseconds(D d) noexcept {
  const auto us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::nanoseconds(d)).count();
  return us < 0 ? 0 : static_cast<std::uint64_t>(us);
}

}  // namespace nnhal
