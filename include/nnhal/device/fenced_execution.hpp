#pragma once
/// \file
/// The asynchronous half of executeFenced (NNHAL_ASYNC): when every waited fence has
/// signalled, the execution is queued on the Device's workers; a waited fence in error puts the
/// returned fence in error without running anything. Waiting costs no thread: fences call back.

#include <atomic>
#include <memory>

#include "nnhal/device/device_prepared_model.hpp"

#if NNHAL_ASYNC
namespace nnhal {

template <Clock C>
Expected<FencedExecution> DevicePreparedModel<C>::launch_fenced(const Request& request,
                                                                std::span<const SyncFence> wait_for,
                                                                const ExecutionArgs<C>& args,
                                                                std::optional<std::chrono::nanoseconds> after,
                                                                typename C::time_point start,
                                                                std::shared_ptr<FencedExecution::Shared> shared) {
  SyncFence out = SyncFence::create();
  auto fail = [shared, out]() mutable {
    {
      detail::LockGuard lock(shared->mutex);
      shared->info = FencedExecutionInfo{};  // GENERAL_FAILURE, no timing
    }
    out.set_error();
  };
  auto self = this->shared_from_this();
  auto launch = [self, request, args, after, start, shared, out, fail]() mutable {
    auto slot = self->acquire();
    if (!slot) return fail();
    FencedExecutionInfo info;
    const auto fences_done = self->context_->clock.now();
    ExecutionResult r = self->run(**slot, request, args, fenced_deadline(args, fences_done, after), start, true, &info);
    self->release(std::move(*slot));
    {
      detail::LockGuard lock(shared->mutex);
      shared->info = info;
    }
    if (r.status) out.signal();
    else out.set_error();
  };
  struct Countdown {
    std::atomic<std::size_t> remaining;
    std::atomic<bool> failed{false};
  };
  auto countdown = std::make_shared<Countdown>();
  countdown->remaining = wait_for.size();
  auto context = context_;
  for (const SyncFence& f : wait_for) {
    SyncFence waited = f;
    waited.on_completion([countdown, context, launch, fail](FenceState state) mutable {
      // An error is recorded before the count drops, so whoever brings it to zero sees it.
      if (state == FenceState::Error && !countdown->failed.exchange(true)) fail();
      if (countdown->remaining.fetch_sub(1) != 1 || countdown->failed) return;
      if (!context->post(launch)) fail();
    });
  }
  return FencedExecution{out, std::move(shared)};
}

}  // namespace nnhal
#endif  // NNHAL_ASYNC
