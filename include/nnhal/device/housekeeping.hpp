#pragma once
/// \file
/// Housekeeping (NNHAL_ASYNC): one background thread per Device that gives back the execution
/// memory of prepared models left idle for their configured period. It wakes at half the
/// shortest period it watches, so memory goes within 1.5 periods of the last execution.

#include "nnhal/config.hpp"

#if NNHAL_ASYNC
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "nnhal/device/device_prepared_model.hpp"

namespace nnhal::detail {

template <Clock C>
class Housekeeping {
 public:
  explicit Housekeeping(std::shared_ptr<DeviceContext<C>> context) : context_(std::move(context)) {
    thread_ = std::thread([this] { loop(); });
  }
  Housekeeping(const Housekeeping&) = delete;
  Housekeeping& operator=(const Housekeeping&) = delete;
  ~Housekeeping() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }

  void watch(const std::shared_ptr<DevicePreparedModel<C>>& model, std::chrono::nanoseconds period) {
    {
      std::lock_guard lock(mutex_);
      watched_.push_back(model);
      const auto half = period / 2 > std::chrono::milliseconds(1) ? period / 2 : std::chrono::nanoseconds(std::chrono::milliseconds(1));
      if (tick_ == std::chrono::nanoseconds::zero() || half < tick_) tick_ = half;
    }
    wake_.notify_all();
  }

 private:
  void loop() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
      if (tick_ == std::chrono::nanoseconds::zero()) wake_.wait(lock);
      else wake_.wait_for(lock, tick_);
      if (stopping_) break;
      const auto now = context_->clock.now();
      std::size_t live = 0;
      for (auto& w : watched_) {
        auto model = w.lock();
        if (!model) continue;
        model->release_if_idle(now);
        watched_[live++] = w;
      }
      watched_.resize(live);
    }
  }

  std::shared_ptr<DeviceContext<C>> context_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<std::weak_ptr<DevicePreparedModel<C>>> watched_;
  std::chrono::nanoseconds tick_{0};
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace nnhal::detail
#endif  // NNHAL_ASYNC
