#pragma once
// Test helper: the check every no-allocation test ends with. An execution that has already run
// once runs its request twice more; each run must succeed and make no heap allocation.

#include <doctest/doctest.h>

#include "counting_allocator.hpp"

namespace nnhal::test {

/// Runs `execution` on `request` twice, checking each run succeeds and allocates nothing.
template <class Execution, class Request>
void check_reruns_allocate_nothing(Execution& execution, const Request& request) {
  for (int run = 0; run < 2; ++run) {
    bool ok = false;
    CHECK(allocations_during([&] { ok = execution.run(request).has_value(); }) == 0);
    CHECK(ok);
  }
}

}  // namespace nnhal::test
