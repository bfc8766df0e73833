#pragma once
/// \file
/// SyncFence: a portable stand-in for a sync fence file descriptor. A fence is pending until it
/// is signalled or put in error, once; waiters block on it and continuations run when it
/// completes. Copies share one state. An empty fence (default constructed) is not a fence:
/// executeFenced rejects it like an invalid handle.

#include <chrono>
#include <functional>
#include <memory>
#include <vector>

#include "nnhal/config.hpp"

#if NNHAL_ASYNC
#include <condition_variable>
#include <mutex>
#endif

namespace nnhal {

/// The state of a fence.
enum class FenceState : std::uint8_t { Pending, Signaled, Error };

class SyncFence {
 public:
  SyncFence() = default;

  /// A fence that is already signalled (or in error).
  static SyncFence signaled() { return SyncFence(FenceState::Signaled); }
  static SyncFence failed() { return SyncFence(FenceState::Error); }
#if NNHAL_ASYNC
  /// A pending fence; complete it with signal() or set_error().
  static SyncFence create() { return SyncFence(FenceState::Pending); }
#endif

  bool valid() const noexcept { return state_ != nullptr; }

  FenceState state() const {
#if NNHAL_ASYNC
    std::lock_guard lock(state_->mutex);
#endif
    return state_->value;
  }

#if NNHAL_ASYNC
  /// Completes the fence (first completion wins) and runs its continuations.
  void signal() { complete(FenceState::Signaled); }
  void set_error() { complete(FenceState::Error); }

  /// Blocks until the fence completes or `timeout` passes; returns the state then.
  FenceState wait(std::chrono::nanoseconds timeout = std::chrono::nanoseconds::max()) const {
    std::unique_lock lock(state_->mutex);
    auto done = [&] { return state_->value != FenceState::Pending; };
    if (timeout == std::chrono::nanoseconds::max()) state_->completed.wait(lock, done);
    else state_->completed.wait_for(lock, timeout, done);
    return state_->value;
  }

  /// Calls `f(state)` once the fence completes: now (on this thread) if it already has, else on
  /// the thread that completes it.
  void on_completion(std::function<void(FenceState)> f) {
    std::unique_lock lock(state_->mutex);
    if (state_->value == FenceState::Pending) {
      state_->continuations.push_back(std::move(f));
      return;
    }
    const FenceState now = state_->value;
    lock.unlock();
    f(now);
  }
#endif

 private:
  struct State {
    FenceState value = FenceState::Pending;
#if NNHAL_ASYNC
    mutable std::mutex mutex;
    std::condition_variable completed;
    std::vector<std::function<void(FenceState)>> continuations;
#endif
  };

  explicit SyncFence(FenceState s) : state_(std::make_shared<State>()) { state_->value = s; }

#if NNHAL_ASYNC
  void complete(FenceState s) {
    std::vector<std::function<void(FenceState)>> run;
    {
      std::lock_guard lock(state_->mutex);
      if (state_->value != FenceState::Pending) return;
      state_->value = s;
      run.swap(state_->continuations);
    }
    state_->completed.notify_all();
    for (auto& f : run) f(s);
  }
#endif

  std::shared_ptr<State> state_;
};

}  // namespace nnhal
