#pragma once
/// \file
/// ResultCallback (NNHAL_ASYNC): a ready-made ExecutionCallback that keeps the result of an
/// asynchronous execution and lets the caller block until it arrives, for drivers whose
/// service API is synchronous at the edge, and for tests.

#include "nnhal/config.hpp"

#if NNHAL_ASYNC
#include <condition_variable>
#include <mutex>
#include <optional>
#include <utility>

#include "nnhal/device/execution_types.hpp"

namespace nnhal {

class ResultCallback final : public ExecutionCallback {
 public:
  void notify(ExecutionResult result) override {
    {
      std::lock_guard lock(mutex_);
      ++notifications_;
      result_ = std::move(result);
    }
    done_.notify_all();
  }
  /// Blocks until notified; returns the result (once: it is moved out).
  ExecutionResult wait() {
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] { return result_.has_value(); });
    ExecutionResult r = std::move(*result_);
    result_.reset();
    return r;
  }
  /// How many times notify() was called (exactly once per launched execution).
  int notifications() const {
    std::lock_guard lock(mutex_);
    return notifications_;
  }

 private:
  mutable std::mutex mutex_;
  std::condition_variable done_;
  std::optional<ExecutionResult> result_;
  int notifications_ = 0;
};

}  // namespace nnhal
#endif  // NNHAL_ASYNC
