#pragma once
/// \file
/// WorkerPool: the threads that run a Device's asynchronous work (asynchronous executions and
/// fenced executions whose fences complete later). Tasks run in the order they were queued;
/// the destructor finishes every queued task before joining. Only with NNHAL_ASYNC.

#include "nnhal/config.hpp"

#if NNHAL_ASYNC
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace nnhal {

class WorkerPool {
 public:
  /// Starts `threads` workers (at least one).
  explicit WorkerPool(std::size_t threads) {
    if (threads == 0) threads = 1;
    workers_.reserve(threads);
    for (std::size_t i = 0; i < threads; ++i) workers_.emplace_back([this] { work(); });
  }
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;
  ~WorkerPool() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : workers_) t.join();
  }

  /// Queues `task`. False when the pool is shutting down (the task is not run).
  bool post(std::function<void()> task) {
    {
      std::lock_guard lock(mutex_);
      if (stopping_) return false;
      tasks_.push_back(std::move(task));
    }
    wake_.notify_one();
    return true;
  }

  std::size_t size() const noexcept { return workers_.size(); }

 private:
  void work() {
    for (;;) {
      std::function<void()> task;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return stopping_ || !tasks_.empty(); });
        if (tasks_.empty()) return;  // stopping, and nothing left to do
        task = std::move(tasks_.front());
        tasks_.pop_front();
      }
      task();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> tasks_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace nnhal
#endif  // NNHAL_ASYNC
