#pragma once
/// \file
/// The lock the device layer guards its shared state with: std::mutex, or with NNHAL_ASYNC=0
/// (a build without threads, where <mutex> may not exist) a lock that does nothing, since
/// nothing can run concurrently there.

#include "nnhal/config.hpp"

#if NNHAL_ASYNC
#include <mutex>
#endif

namespace nnhal::detail {

#if NNHAL_ASYNC
using DeviceMutex = std::mutex;
#else
struct DeviceMutex {
  void lock() noexcept {}
  void unlock() noexcept {}
  bool try_lock() noexcept { return true; }
};
#endif

/// std::lock_guard without <mutex>.
template <class M>
class LockGuard {
 public:
  explicit LockGuard(M& m) : m_(m) { m_.lock(); }
  LockGuard(const LockGuard&) = delete;
  LockGuard& operator=(const LockGuard&) = delete;
  ~LockGuard() { m_.unlock(); }

 private:
  M& m_;
};

}  // namespace nnhal::detail
