#pragma once
/// \file
/// Launching one execution through the device interface in one of the four modes
/// (ExecutionMode): the single function every run of the conformance runner and of the
/// random-graph checker goes through. Timing is always asked for and checked.

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cts/runner.hpp"
#include "nnhal/device/device.hpp"

namespace nnhal::cts {

inline std::string describe(std::string_view stage, const Error& e) {
  std::string s(stage);
  s += ": ";
  s += to_string(e.status());
  s += ": ";
  s += e.message();
  return s;
}

/// What one execution produced: its status and, on success, the reported output shapes.
struct ExecutionResult {
  std::optional<std::string> failure;  ///< "stage: STATUS: message" when something failed
  std::optional<ErrorStatus> status;   ///< the failing status
  std::vector<OutputShape> shapes;
};

inline ExecutionResult failed(std::string_view stage, const Error& e) { return {describe(stage, e), e.status(), {}}; }

/// Checks the HAL's timing rules on a successful run measured with MeasureTiming::YES.
inline std::optional<std::string> timing_problem(const Timing& t) {
  if (t.timeInDriver == UINT64_MAX || t.timeOnDevice == UINT64_MAX) return "timing asked for but not reported";
  if (t.timeOnDevice > t.timeInDriver) return "time on device exceeds time in driver";
  return std::nullopt;
}

inline ExecutionResult finish(std::string_view stage, nnhal::ExecutionResult r) {
  if (!r.status) return failed(stage, r.status.error());
  if (auto p = timing_problem(r.timing)) return {std::string(stage) + ": " + *p, ErrorStatus::GENERAL_FAILURE, {}};
  return {std::nullopt, std::nullopt, std::move(r.output_shapes)};
}

/// The one place an execution is launched, in the mode `options` names. Timing is always asked for and checked.
template <class C>
ExecutionResult execute(DevicePreparedModel<C>& prepared, const Request& request, const RunnerOptions& options) {
  ExecutionArgs<C> args;
  args.measure = MeasureTiming::YES;
  if (options.loop_timeout_ms) args.loop_timeout = std::chrono::milliseconds(*options.loop_timeout_ms);
  switch (options.mode) {
    case ExecutionMode::Sync:
      return finish("execute", prepared.execute(request, args));
    case ExecutionMode::Burst: {
      auto burst = prepared.configure_burst();
      if (!burst) return failed("configure burst", burst.error());
      return finish("burst", (*burst)->execute(request, args));
    }
    case ExecutionMode::Async: {
      auto callback = std::make_shared<ResultCallback>();
      Status launched = prepared.execute_async(request, args, callback);
      nnhal::ExecutionResult r = callback->wait();  // notified on every launch, failed or not
      if (!launched) return failed("launch", launched.error());
      return finish("async", std::move(r));
    }
    case ExecutionMode::Fenced: {
      // A pending fence signalled after the call, so the execution takes the path that waits.
      SyncFence gate = SyncFence::create();
      const SyncFence waits[] = {gate};
      auto launched = prepared.execute_fenced(request, waits, args);
      gate.signal();
      if (!launched) return failed("executeFenced", launched.error());
      const FenceState state = launched->fence.wait();
      const FencedExecutionInfo info = launched->execution_info();
      if (state != FenceState::Signaled || info.status != ErrorStatus::NONE) {
        const ErrorStatus st = info.status == ErrorStatus::NONE ? ErrorStatus::GENERAL_FAILURE : info.status;
        return {std::string("fenced: ") + std::string(to_string(st)) + ": the fence went to error", st, {}};
      }
      if (auto p = timing_problem(info.timing_launched)) return {"fenced: launched " + *p, ErrorStatus::GENERAL_FAILURE, {}};
      if (auto p = timing_problem(info.timing_fenced)) return {"fenced: fenced " + *p, ErrorStatus::GENERAL_FAILURE, {}};
      return {};  // executeFenced reports no output shapes
    }
  }
  return {"run: unknown execution mode", ErrorStatus::GENERAL_FAILURE, {}};
}

}  // namespace nnhal::cts
