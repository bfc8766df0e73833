// Replacements of the global allocation functions for the whole test program. They forward to
// aligned_alloc / free and count calls while a test asks them to (counting_allocator.hpp).
// Kept in their own translation unit so no caller sees both the allocation and the release.

#include "counting_allocator.hpp"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace {
std::atomic<bool> g_counting{false};
std::atomic<std::size_t> g_allocations{0};
// Bytes held by blocks allocated minus blocks freed while counting (usable sizes), and its peak.
std::atomic<std::int64_t> g_held{0};
std::atomic<std::int64_t> g_peak{0};

std::int64_t usable_size(void* p) noexcept {
#if defined(__GLIBC__)
  return p == nullptr ? 0 : static_cast<std::int64_t>(malloc_usable_size(p));
#else
  (void)p;
  return 0;  // no peak measurement without glibc
#endif
}

void* counted_alloc(std::size_t n, std::size_t align) noexcept {
  const std::size_t a = align < alignof(std::max_align_t) ? alignof(std::max_align_t) : align;
  const std::size_t size = ((n == 0 ? 1 : n) + a - 1) / a * a;
  void* p = std::aligned_alloc(a, size);
  if (g_counting.load(std::memory_order_relaxed)) {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    const std::int64_t held = g_held.fetch_add(usable_size(p), std::memory_order_relaxed) + usable_size(p);
    std::int64_t peak = g_peak.load(std::memory_order_relaxed);
    while (held > peak && !g_peak.compare_exchange_weak(peak, held, std::memory_order_relaxed)) {
    }
  }
  return p;
}

void counted_free(void* p) noexcept {
  if (g_counting.load(std::memory_order_relaxed)) g_held.fetch_sub(usable_size(p), std::memory_order_relaxed);
  std::free(p);
}
}  // namespace

namespace nnhal::test {
void start_counting_allocations() noexcept {
  g_allocations = 0;
  g_held = 0;
  g_peak = 0;
  g_counting = true;
}
std::size_t peak_counted_bytes() noexcept { return static_cast<std::size_t>(g_peak.load()); }
std::size_t stop_counting_allocations() noexcept {
  g_counting = false;
  return g_allocations.load();
}
}  // namespace nnhal::test

void* operator new(std::size_t n) {
  if (void* p = counted_alloc(n, 0)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void* operator new(std::size_t n, std::align_val_t a) {
  if (void* p = counted_alloc(n, static_cast<std::size_t>(a))) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n, std::align_val_t a) { return operator new(n, a); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return counted_alloc(n, 0); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return counted_alloc(n, 0); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return counted_alloc(n, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return counted_alloc(n, static_cast<std::size_t>(a));
}
void operator delete(void* p) noexcept { counted_free(p); }
void operator delete[](void* p) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t) noexcept { counted_free(p); }
void operator delete(void* p, std::align_val_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { counted_free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { counted_free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { counted_free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { counted_free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { counted_free(p); }
