#pragma once
/// \file
/// DevicePreparedModel: the IPreparedModel of HAL13.md c.3. One prepared plan, shared by any
/// number of concurrent executions in every mode: synchronous, asynchronous (result through an
/// ExecutionCallback), fenced (waits on SyncFences, returns one) and bursts. Each running
/// execution takes an execution context (operand records, arena, loop buffers) from a pool that
/// is filled on first use, so preparing reserves no large buffers and a steady stream of
/// executions allocates none; release_idle_memory() (or the Device, after an idle period)
/// gives the contexts back.

#include <chrono>
#include <memory>
#include "nnhal/device/mutex.hpp"
#include <optional>
#include <span>
#include <vector>

#include "nnhal/config.hpp"
#include "nnhal/device/device_context.hpp"
#include "nnhal/device/execution_types.hpp"
#include "nnhal/device/memory_domain.hpp"
#include "nnhal/device/sync_fence.hpp"
#include "nnhal/exec/prepared_model.hpp"

namespace nnhal {

template <Clock C>
class Burst;

/// What executeFenced returns: the fence signalled when the execution ends (or put in error),
/// and the object that then tells the status and timings.
struct FencedExecution {
  SyncFence fence;
  /// getExecutionInfo(): GENERAL_FAILURE while the fence has not completed.
  FencedExecutionInfo execution_info() const {
    if (fence.state() == FenceState::Pending || result == nullptr) return {};
    detail::LockGuard lock(result->mutex);
    return result->info;
  }
  struct Shared {
    detail::DeviceMutex mutex;
    FencedExecutionInfo info;
  };
  std::shared_ptr<Shared> result;
};

/// Options a prepared model keeps from prepare.
struct PreparedModelSettings {
  ExecutionPreference preference = ExecutionPreference::FAST_SINGLE_ANSWER;
  Priority priority = Priority::MEDIUM;
  /// Execution contexts unused for this long are released (by the Device's housekeeping);
  /// absent: they are kept until release_idle_memory() or the prepared model goes.
  std::optional<std::chrono::nanoseconds> idle_release;
};

template <Clock C = SteadyClock>
class DevicePreparedModel : public std::enable_shared_from_this<DevicePreparedModel<C>> {
 public:
  DevicePreparedModel(PreparedModel prepared, PreparedModelSettings settings,
                      std::shared_ptr<detail::DeviceContext<C>> context)
      : prepared_(std::move(prepared)), settings_(settings), context_(std::move(context)),
        last_used_(context_->clock.now()) {}

  const PreparedModel& prepared() const noexcept { return prepared_; }
  /// Whether `device_state` is the state of the Device that prepared this model.
  bool made_by(const void* device_state) const noexcept { return context_.get() == device_state; }
  const PreparedModelSettings& settings() const noexcept { return settings_; }

  /// executeSynchronously: runs `request` on the calling thread.
  ExecutionResult execute(const Request& request, const ExecutionArgs<C>& args = {}) {
    ExecutionResult r;
    execute(request, args, r);
    return r;
  }

  /// The same into `result`, reusing its memory: its output_shapes vector and their
  /// dimensions keep their capacity, so a caller that passes the same ExecutionResult to every
  /// execution of a model makes no heap allocation per execution once the first has run.
  void execute(const Request& request, const ExecutionArgs<C>& args, ExecutionResult& result) {
    const auto start = context_->clock.now();
    auto slot = acquire();
    if (!slot) {
      result.output_shapes.clear();
      result.timing = {};
      result.status = std::move(slot.error());
      return;
    }
    run_into(**slot, request, args, args.deadline, start, false, nullptr, result);
    release(std::move(*slot));
  }

#if NNHAL_ASYNC
  /// execute (asynchronous): validates now, runs on the Device's workers, and calls
  /// `callback->notify` exactly once. Returns the launch status: INVALID_ARGUMENT for a null
  /// callback (nothing notified) or an invalid request (also notified), GENERAL_FAILURE when the
  /// work cannot be launched (also notified), else NONE.
  Status execute_async(const Request& request, const ExecutionArgs<C>& args,
                       std::shared_ptr<ExecutionCallback> callback) {
    if (callback == nullptr) return NNHAL_INVALID("execute: the callback is null");
    const auto start = context_->clock.now();
    RequestValidationOptions checks;
    checks.extensions = prepared_.extensions();
    if (Status s = detail::validate_request_rows(request, prepared_.model(), checks, prepared_.rows()); !s) {
      callback->notify(failure(s.error()));
      return s;
    }
    auto slot = acquire();
    if (!slot) {
      callback->notify(failure(slot.error()));
      return std::move(slot.error());
    }
    // std::function needs a copyable task, so the context travels as a raw pointer; the pool
    // runs every task it accepted, and a refused task's context is released here.
    Slot* raw = slot->release();
    auto self = this->shared_from_this();
    auto task = [self, request, args, start, callback, raw] {
      std::unique_ptr<Slot> s(raw);
      ExecutionResult r = self->run(*s, request, args, args.deadline, start, false, nullptr);
      self->release(std::move(s));
      callback->notify(std::move(r));
    };
    if (!context_->post(std::move(task))) {
      release(std::unique_ptr<Slot>(raw));
      Error e(ErrorStatus::GENERAL_FAILURE, "execute: the device is shutting down");
      callback->notify(failure(e));
      return e;
    }
    return {};
  }
#endif

  /// executeFenced: outputs must be fully specified. Waits for every fence of `wait_for`, then
  /// runs with the deadline min(deadline, fences signalled + timeout_after_fence). Immediate
  /// errors (invalid request, an empty fence or one already in error: INVALID_ARGUMENT) are
  /// returned. When every fence has already signalled, the execution runs in this call and its
  /// error, if any, is returned too; otherwise (NNHAL_ASYNC) it runs on the Device's workers and
  /// the returned fence goes to error if a waited fence does or the execution fails.
  Expected<FencedExecution> execute_fenced(const Request& request, std::span<const SyncFence> wait_for,
                                           const ExecutionArgs<C>& args = {},
                                           std::optional<std::chrono::nanoseconds> timeout_after_fence = {}) {
    const auto start = context_->clock.now();
    RequestValidationOptions fenced;
    fenced.allow_unspecified_outputs = false;
    fenced.extensions = prepared_.extensions();
    if (Status s = detail::validate_request_rows(request, prepared_.model(), fenced, prepared_.rows()); !s)
      return std::move(s.error().prefix("executeFenced"));
    bool pending = false;
    for (std::size_t i = 0; i < wait_for.size(); ++i) {
      if (!wait_for[i].valid()) return NNHAL_INVALID("executeFenced: fence %zu is not a fence", i);
      const FenceState st = wait_for[i].state();
      if (st == FenceState::Error) return NNHAL_INVALID("executeFenced: fence %zu is in error", i);
      pending = pending || st == FenceState::Pending;
    }
    auto shared = std::make_shared<FencedExecution::Shared>();
    if (!pending) {
      auto slot = acquire();
      if (!slot) return std::move(slot.error());
      ExecutionResult r = run(**slot, request, args, fenced_deadline(args, start, timeout_after_fence), start, true,
                              &shared->info);
      release(std::move(*slot));
      if (!r.status) return std::move(r.status.error());
      return FencedExecution{SyncFence::signaled(), std::move(shared)};
    }
#if NNHAL_ASYNC
    return launch_fenced(request, wait_for, args, timeout_after_fence, start, std::move(shared));
#else
    return NNHAL_FAILURE("executeFenced: waiting on pending fences needs NNHAL_ASYNC");
#endif
  }

  /// configureExecutionBurst: a burst keeps one execution context for itself.
  Expected<std::unique_ptr<Burst<C>>> configure_burst();

  /// Frees the cached execution contexts that no execution is using.
  void release_idle_memory() {
    std::vector<std::unique_ptr<Slot>> freed;
    detail::LockGuard lock(mutex_);
    freed.swap(free_);
  }
  /// Releases the cached contexts when none was used for the configured idle period.
  void release_if_idle(typename C::time_point now) {
    if (!settings_.idle_release) return;
    std::vector<std::unique_ptr<Slot>> freed;
    detail::LockGuard lock(mutex_);
    if (in_use_ == 0 && std::chrono::nanoseconds(now - last_used_) >= *settings_.idle_release) freed.swap(free_);
  }
  /// Execution contexts held for reuse (not counting those running).
  std::size_t cached_contexts() const {
    detail::LockGuard lock(mutex_);
    return free_.size();
  }

 private:
  friend class Burst<C>;

  struct Slot {
    Execution<C> execution;
    BoundBuffers buffers;
  };

  static bool has_token_pool(const Request& request) noexcept {
    for (const RequestMemoryPool& p : request.pools)
      if (p.token != 0) return true;
    return false;
  }

  static ExecutionResult failure(const Error& e) {
    ExecutionResult r;
    r.status = e;
    return r;
  }

  Expected<std::unique_ptr<Slot>> acquire() {
    {
      detail::LockGuard lock(mutex_);
      ++in_use_;
      if (!free_.empty()) {
        std::unique_ptr<Slot> s = std::move(free_.back());
        free_.pop_back();
        return s;
      }
    }
    auto created = create_slot();
    if (!created) {
      detail::LockGuard lock(mutex_);
      --in_use_;
    }
    return created;
  }
  Expected<std::unique_ptr<Slot>> create_slot() {
    auto e = prepared_.template create_execution<C>(context_->clock);
    if (!e) return std::move(e.error());
    const Model& m = prepared_.model();
    return std::unique_ptr<Slot>(new Slot{std::move(*e), BoundBuffers(8, m.main.inputIndexes.size() + m.main.outputIndexes.size())});
  }
  void release(std::unique_ptr<Slot> slot) {
    const auto now = context_->clock.now();
    detail::LockGuard lock(mutex_);
    --in_use_;
    last_used_ = now;
    free_.push_back(std::move(slot));  // capacity grows with the peak concurrency, then stays
  }

  static std::optional<typename C::time_point> fenced_deadline(const ExecutionArgs<C>& args,
                                                               typename C::time_point fences_done,
                                                               std::optional<std::chrono::nanoseconds> after) {
    if (!after) return args.deadline;
    const auto limit = fences_done + std::chrono::duration_cast<typename C::time_point::duration>(*after);
    if (!args.deadline || std::chrono::nanoseconds(limit - *args.deadline) < std::chrono::nanoseconds{0}) return limit;
    return args.deadline;
  }

  /// Runs one execution on `slot`: binds driver-managed buffers, runs, measures. `fenced_info`
  /// (fenced mode) receives the status and timings, measured from `start` (the call) and from
  /// the moment the run began (after the fences).
  ExecutionResult run(Slot& slot, const Request& request, const ExecutionArgs<C>& args,
                      std::optional<typename C::time_point> deadline, typename C::time_point start, bool fenced,
                      FencedExecutionInfo* fenced_info) {
    ExecutionResult r;
    run_into(slot, request, args, deadline, start, fenced, fenced_info, r);
    return r;
  }

  /// run() into `r`, whose memory is reused (see execute(request, args, result)).
  void run_into(Slot& slot, const Request& request, const ExecutionArgs<C>& args,
                std::optional<typename C::time_point> deadline, typename C::time_point start, bool fenced,
                FencedExecutionInfo* fenced_info, ExecutionResult& r) {
    r.timing = {};
    ExecuteOptions<C> options;
    options.deadline = deadline;
    options.loop_timeout = args.loop_timeout.value_or(kLoopTimeoutDefault);
    options.request.allow_unspecified_outputs = !fenced;
    options.trace = context_->trace;
    C& clock = context_->clock;
    const auto fences_done = clock.now();
    auto device_start = fences_done, device_end = fences_done;
    // With driver-managed buffers, the request is validated before their use is checked, so a
    // malformed request gets INVALID_ARGUMENT even when it also reads an uninitialized buffer.
    // (The execution sets the prepared model's extensions in its own check; this one needs them too.)
    RequestValidationOptions checks = options.request;
    checks.extensions = prepared_.extensions();
    Status s = has_token_pool(request)
                   ? detail::validate_request_rows(request, prepared_.model(), checks, prepared_.rows())
                   : Status{};
    if (s) s = slot.buffers.bind(request, prepared_, context_->buffers);
    if (s) {
      options.token_memory = slot.buffers.token_memory();
      device_start = clock.now();
      s = slot.execution.run(request, options);
      device_end = clock.now();
      s = slot.buffers.finish(s, slot.execution.output_shapes());
    }
    const bool shapes = s || s.error().status() == ErrorStatus::OUTPUT_INSUFFICIENT_SIZE;
    if (shapes && !fenced) {
      const auto produced = slot.execution.output_shapes();
      r.output_shapes.resize(produced.size());
      for (std::size_t i = 0; i < produced.size(); ++i) {
        r.output_shapes[i].dimensions.assign(produced[i].dimensions.begin(), produced[i].dimensions.end());
        r.output_shapes[i].isSufficient = produced[i].isSufficient;
      }
    } else {
      r.output_shapes.clear();
    }
    const auto end = clock.now();
    if (s && args.measure == MeasureTiming::YES) {
      r.timing.timeOnDevice = to_microseconds(device_end - device_start);
      r.timing.timeInDriver = to_microseconds(end - start);
    }
    if (fenced_info != nullptr) {
      fenced_info->status = s ? ErrorStatus::NONE : s.error().status();
      if (s && args.measure == MeasureTiming::YES) {
        fenced_info->timing_launched = r.timing;
        fenced_info->timing_fenced = {r.timing.timeOnDevice, to_microseconds(end - fences_done)};
      }
    }
    r.status = std::move(s);
  }

#if NNHAL_ASYNC
  Expected<FencedExecution> launch_fenced(const Request& request, std::span<const SyncFence> wait_for,
                                          const ExecutionArgs<C>& args,
                                          std::optional<std::chrono::nanoseconds> after, typename C::time_point start,
                                          std::shared_ptr<FencedExecution::Shared> shared);
#endif

  PreparedModel prepared_;
  PreparedModelSettings settings_;
  std::shared_ptr<detail::DeviceContext<C>> context_;
  mutable detail::DeviceMutex mutex_;
  std::vector<std::unique_ptr<Slot>> free_;
  std::size_t in_use_ = 0;
  typename C::time_point last_used_;
};

}  // namespace nnhal

#include "nnhal/device/fenced_execution.hpp"
