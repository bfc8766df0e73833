// for_each_piece (include/nnhal/interface/parallel.hpp): the ranges it hands to a Parallel cover
// [0, n) once, start on grain boundaries, respect the minimum size, number a few per thread, and
// name workers below the concurrency; without a Parallel everything is one range.
#include <doctest/doctest.h>

#include <cstddef>
#include <vector>

#include "nnhal/interface/parallel.hpp"
#include "support/reversed_parallel.hpp"

using nnhal::test::Reversed;

TEST_CASE("for_each_piece: contiguous ranges on grain boundaries, each index once, a few per thread") {
  for (std::size_t concurrency : {1u, 2u, 3u, 5u}) {
    for (std::size_t n : {0u, 1u, 7u, 12u, 100u, 1001u}) {
      Reversed parallel(concurrency);
      std::vector<int> seen(n, 0);
      std::size_t ranges = 0;
      nnhal::for_each_piece(&parallel, n, 4, 8, [&](std::size_t begin, std::size_t end, std::size_t worker) {
        CHECK(begin < end);
        CHECK(end <= n);
        CHECK(worker < concurrency);
        if (end != n) CHECK(end % 4 == 0);
        CHECK(begin % 4 == 0);
        if (ranges > 0 || end != n) CHECK(end - begin >= 8);
        for (std::size_t i = begin; i < end; ++i) ++seen[i];
        ++ranges;
      });
      for (int s : seen) CHECK(s == 1);
      CHECK(parallel.max_pieces <= nnhal::kPiecesPerThread * concurrency);
      if (concurrency == 1) CHECK(ranges == (n == 0 ? 0u : 1u));
      if (n >= 8 * nnhal::kPiecesPerThread * concurrency && concurrency > 1)
        CHECK(ranges == nnhal::kPiecesPerThread * concurrency);
    }
  }
}

TEST_CASE("for_each_piece without a Parallel: one range on the calling thread") {
  std::size_t calls = 0;
  nnhal::for_each_piece(nullptr, 1000, 4, 8, [&](std::size_t begin, std::size_t end, std::size_t worker) {
    CHECK(begin == 0);
    CHECK(end == 1000);
    CHECK(worker == 0);
    ++calls;
  });
  CHECK(calls == 1);
  nnhal::for_each_piece(nullptr, 0, 4, 8, [&](std::size_t, std::size_t, std::size_t) { ++calls; });
  CHECK(calls == 1);
}
