#pragma once
/// \file
/// ThreadPool: the library's Parallel (nnhal/interface/parallel.hpp), a small fixed pool for
/// programs and drivers that do not plug their own. `ThreadPool pool(2)` runs kernel pieces on
/// the calling thread and one worker; pass it as PrepareOptions::parallel (or let a Device own
/// one: DeviceOptions::threads).
///
/// One kernel call at a time: a second caller while the pool is busy (another execution on
/// another thread, or a nested call) runs its pieces itself, so callers never wait on each other
/// and never deadlock. A job costs no allocation. Workers spin briefly after a job before they
/// sleep, since a network's next layer follows within microseconds.

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "nnhal/interface/parallel.hpp"

namespace nnhal {

class ThreadPool final : public Parallel {
 public:
  /// A pool of `threads` threads in all, the caller's included (`threads - 1` workers;
  /// 0 or 1: no worker, everything on the caller).
  explicit ThreadPool(std::size_t threads) {
    const std::size_t workers = threads > 1 ? threads - 1 : 0;
    workers_.reserve(workers);
    for (std::size_t i = 0; i < workers; ++i) workers_.emplace_back([this] { work(); });
  }
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;
  ~ThreadPool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_.store(true, std::memory_order_relaxed);
      generation_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
    for (std::thread& t : workers_) t.join();
  }

  std::size_t concurrency() const noexcept override { return workers_.size() + 1; }

  void run(std::size_t pieces, Task task, void* context) noexcept override {
    if (pieces == 0) return;
    std::unique_lock<std::mutex> busy(submit_, std::try_to_lock);
    if (pieces == 1 || workers_.empty() || !busy.owns_lock()) {
      for (std::size_t i = 0; i < pieces; ++i) task(context, i);
      return;
    }
    task_ = task;
    context_ = context;
    pieces_ = pieces;
    next_.store(0, std::memory_order_relaxed);
    finished_.store(0, std::memory_order_relaxed);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      generation_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
    take_pieces();
    // Every worker acknowledges every job, so none still reads this job's fields when the next
    // one writes them.
    const std::size_t workers = workers_.size();
    for (unsigned spins = 0; finished_.load(std::memory_order_acquire) != workers; ++spins) {
      if (spins < kSpins) pause();
      else std::this_thread::yield();
    }
  }

 private:
  static constexpr unsigned kSpins = 1u << 16;

  static void pause() noexcept {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }

  void take_pieces() noexcept {
    for (std::size_t i; (i = next_.fetch_add(1, std::memory_order_relaxed)) < pieces_;) task_(context_, i);
  }

  void work() {
    std::uint64_t seen = 0;
    for (;;) {
      unsigned spins = 0;
      while (generation_.load(std::memory_order_acquire) == seen && spins < kSpins) {
        pause();
        ++spins;
      }
      if (generation_.load(std::memory_order_acquire) == seen) {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return generation_.load(std::memory_order_acquire) != seen; });
      }
      seen = generation_.load(std::memory_order_acquire);
      if (stop_.load(std::memory_order_relaxed)) return;
      take_pieces();
      finished_.fetch_add(1, std::memory_order_release);
    }
  }

  std::vector<std::thread> workers_;
  std::mutex submit_;  ///< held by the caller whose job the workers run
  std::mutex mutex_;   ///< guards sleeping on wake_
  std::condition_variable wake_;
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<std::size_t> next_{0}, finished_{0};
  std::atomic<bool> stop_{false};
  Task task_ = nullptr;
  void* context_ = nullptr;
  std::size_t pieces_ = 0;
};

}  // namespace nnhal
