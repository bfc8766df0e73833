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
/// sleep, since a network's next layer follows within microseconds; briefly, so that on a core
/// shared with another process the threads do not take each other's time (with one core free,
/// two threads run a network about as fast as one).
///
/// Only with NNHAL_ASYNC (builds with threads). With NNHAL_ASYNC=0 (embedded builds, where
/// std::thread, std::mutex and std::condition_variable may not exist) this header declares
/// nothing: kernels run on the calling thread, or on a Parallel the program provides itself.

#include "nnhal/config.hpp"
#include "nnhal/interface/parallel.hpp"

#if NNHAL_ASYNC
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace nnhal {

class ThreadPool final : public Parallel {
 public:
  /// A pool of `threads` threads in all, the caller's included (`threads - 1` workers;
  /// 0 or 1: no worker, everything on the caller).
  explicit ThreadPool(std::size_t threads) : cursors_(threads > 1 ? threads : 1) {
    const std::size_t workers = threads > 1 ? threads - 1 : 0;
    workers_.reserve(workers);
    for (std::size_t i = 0; i < workers; ++i) workers_.emplace_back([this, i] { work(i + 1); });
  }
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;
  ~ThreadPool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_.store(true, std::memory_order_relaxed);
      state_.fetch_add(2 * kGeneration, std::memory_order_release);  // a new, closed generation
    }
    wake_.notify_all();
    for (std::thread& t : workers_) t.join();
  }

  std::size_t concurrency() const noexcept override { return workers_.size() + 1; }

  void run(std::size_t pieces, Task task, void* context) noexcept override {
    if (pieces == 0) return;
    std::unique_lock<std::mutex> busy(submit_, std::try_to_lock);
    if (pieces == 1 || workers_.empty() || !busy.owns_lock()) {
      for (std::size_t i = 0; i < pieces; ++i) task(context, i, 0);
      return;
    }
    task_ = task;
    context_ = context;
    // Thread w owns the w-th contiguous share of the pieces: consecutive kernels give each
    // thread the same part of the image (its data stays in that core's cache), and a thread
    // that runs out takes what is left of the others' shares.
    const std::size_t threads = cursors_.size();
    for (std::size_t w = 0; w < threads; ++w) {
      cursors_[w].next.store(w * pieces / threads, std::memory_order_relaxed);
      cursors_[w].end = (w + 1) * pieces / threads;
    }
    done_.store(0, std::memory_order_relaxed);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      state_.fetch_add(kGeneration, std::memory_order_release);  // open: odd generation
    }
    wake_.notify_all();
    take_pieces(0);
    // Wait for the pieces other threads took, then close the job and wait for the workers
    // that joined it to leave; a worker that had not joined by then skips it. So a worker
    // that is late (descheduled, say) holds the caller up only if it took a piece.
    spin_until([&] { return done_.load(std::memory_order_acquire) == pieces; });
    state_.fetch_add(kGeneration, std::memory_order_acq_rel);  // closed: even generation
    spin_until([&] { return (state_.load(std::memory_order_acquire) & kJoinedMask) == 0; });
  }

 private:
  // state_: the job's generation (odd while open) times kGeneration, plus the number of
  // workers that joined it.
  static constexpr std::uint64_t kGeneration = std::uint64_t{1} << 32, kJoinedMask = kGeneration - 1;
  /// Pauses a waiting thread spins before it yields (the caller) or sleeps (a worker): tens of
  /// microseconds, longer than the gap between two kernels of a network, short enough not to
  /// starve the thread it waits for when both share a core.
  static constexpr unsigned kSpins = 2048;

  static void pause() noexcept {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }

  template <class F>
  static void spin_until(F&& done) noexcept {
    for (unsigned spins = 0; !done(); ++spins) {
      if (spins < kSpins) pause();
      else std::this_thread::yield();
    }
  }

  /// Runs the pieces left of `worker`'s share, then of the others' shares.
  void take_pieces(std::size_t worker) noexcept {
    const std::size_t threads = cursors_.size();
    for (std::size_t k = 0; k < threads; ++k) {
      Cursor& c = cursors_[(worker + k) % threads];
      for (std::size_t i; (i = c.next.fetch_add(1, std::memory_order_relaxed)) < c.end;) {
        task_(context_, i, worker);
        done_.fetch_add(1, std::memory_order_release);
      }
    }
  }

  void work(std::size_t worker) {
    std::uint64_t seen = 0;  // the last generation this worker joined or skipped
    for (;;) {
      unsigned spins = 0;
      while ((state_.load(std::memory_order_acquire) >> 32) == seen && spins < kSpins) {
        pause();
        ++spins;
      }
      if ((state_.load(std::memory_order_acquire) >> 32) == seen) {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return (state_.load(std::memory_order_acquire) >> 32) != seen; });
      }
      if (stop_.load(std::memory_order_relaxed)) return;
      std::uint64_t s = state_.load(std::memory_order_acquire);
      seen = s >> 32;
      if ((seen & 1) == 0) continue;  // closed before this worker came
      // Join unless the job closes meanwhile (then the exchange fails and it is skipped).
      bool joined = false;
      while ((s >> 32) == seen && !joined)
        joined = state_.compare_exchange_weak(s, s + 1, std::memory_order_acq_rel, std::memory_order_acquire);
      if (!joined) continue;
      take_pieces(worker);
      state_.fetch_sub(1, std::memory_order_release);
    }
  }

  std::vector<std::thread> workers_;
  std::mutex submit_;  ///< held by the caller whose job the workers run
  std::mutex mutex_;   ///< guards sleeping on wake_
  std::condition_variable wake_;
  std::atomic<std::uint64_t> state_{0};
  /// The next piece of a thread's share, and the end of the share; one cache line each.
  struct alignas(64) Cursor {
    std::atomic<std::size_t> next{0};
    std::size_t end = 0;
  };
  std::vector<Cursor> cursors_;  ///< one per thread (the caller's first), set for every job
  std::atomic<std::size_t> done_{0};
  std::atomic<bool> stop_{false};
  Task task_ = nullptr;
  void* context_ = nullptr;
};

}  // namespace nnhal
#endif  // NNHAL_ASYNC
