#pragma once
/// \file
/// What a Device shares with the prepared models it made: its clock, its driver-managed
/// buffers, and (with NNHAL_ASYNC) a way to post work to its worker pool that fails cleanly
/// once the Device is gone.

#include <functional>
#include <memory>

#include "nnhal/config.hpp"
#include "nnhal/device/memory_domain.hpp"
#include "nnhal/exec/clock.hpp"
#include "nnhal/interface/parallel.hpp"
#include "nnhal/util/trace.hpp"

#if NNHAL_ASYNC
#include <mutex>
#include "nnhal/device/worker_pool.hpp"
#include "nnhal/exec/thread_pool.hpp"
#endif

namespace nnhal::detail {

template <Clock C>
struct DeviceContext {
  explicit DeviceContext(C c) : clock(std::move(c)) {}

  C clock;  ///< read from any thread: it must be safe to call now() concurrently
  BufferRegistry buffers;
  TraceSink* trace = nullptr;  ///< DeviceOptions::trace
  /// Where kernels run their pieces: DeviceOptions::parallel, or the pool below; nullptr: the
  /// executing thread.
  Parallel* parallel = nullptr;

#if NNHAL_ASYNC
  /// Queues `task` on the Device's workers; false when the Device is shutting down.
  bool post(std::function<void()> task) {
    std::lock_guard lock(pool_mutex);
    return pool != nullptr && pool->post(std::move(task));
  }
  std::mutex pool_mutex;
  WorkerPool* pool = nullptr;  ///< owned by the Device; cleared before it is destroyed
  /// The kernel pool of DeviceOptions::threads; here rather than in the Device because prepared
  /// models, which may outlive the Device, run on it.
  std::unique_ptr<ThreadPool> kernel_pool;
#endif
};

}  // namespace nnhal::detail
