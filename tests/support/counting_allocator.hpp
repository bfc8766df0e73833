#pragma once
// The test program replaces the global allocation functions (counting_allocator.cpp) so tests
// can count heap allocations made while some code runs.

#include <cstddef>

namespace nnhal::test {

/// Starts / stops counting; returns the count when stopping.
void start_counting_allocations() noexcept;
std::size_t stop_counting_allocations() noexcept;
/// The most heap memory held at once, since start_counting_allocations(), above what was held
/// when it started (blocks freed that were allocated before lower it), in usable bytes. 0 where
/// the C library cannot tell a block's size (only glibc is measured).
std::size_t peak_counted_bytes() noexcept;

/// Heap allocations made while `f` runs.
template <class F>
std::size_t allocations_during(F&& f) {
  start_counting_allocations();
  f();
  return stop_counting_allocations();
}

}  // namespace nnhal::test
