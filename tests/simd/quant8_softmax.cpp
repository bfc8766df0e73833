// nnhal::simd::quant8_softmax (include/nnhal/simd/quant8_softmax.hpp) on every compiled target
// this CPU runs: the row minimum and maximum against a scalar loop, uint8 and int8, sizes
// around the vector width with tails, misaligned starts, and the extremes at the first, the
// last and a tail position.

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "nnhal/simd/quant8_softmax.hpp"
#include "simd/simd_tester.hpp"

namespace {

namespace st = nnhal::test::simd;

template <class E>
void check_min_max(const st::Target& t, std::uint32_t seed) {
  const auto& k = nnhal::simd::quant8_softmax(t.target);
  std::mt19937 gen(seed);
  const int lo = std::numeric_limits<E>::min(), hi = std::numeric_limits<E>::max();
  // Bytes per vector: four times the int32 lanes.
  for (const std::size_t n : st::sizes(4 * t.lanes_f32())) {
    if (n == 0) continue;
    for (const std::size_t off : {std::size_t{0}, std::size_t{1}, std::size_t{3}})
      for (int variant = 0; variant < 4; ++variant) {
        CAPTURE(n);
        CAPTURE(off);
        CAPTURE(variant);
        // Values in a random sub-range, with the row's extremes placed at an edge or in the tail.
        std::uniform_int_distribution<int> a(lo, hi);
        int v0 = a(gen), v1 = a(gen);
        if (v0 > v1) std::swap(v0, v1);
        std::uniform_int_distribution<int> value(v0, v1);
        std::vector<E> buf(n + off + 8, static_cast<E>(variant % 2 ? lo : hi));  // guards outside the row
        E* x = buf.data() + off;
        for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<E>(value(gen));
        if (variant == 1) x[0] = static_cast<E>(lo);
        if (variant == 2) x[n - 1] = static_cast<E>(hi);
        if (variant == 3) x[n - 1] = static_cast<E>(lo);
        std::int32_t want_min = x[0], want_max = x[0];
        for (std::size_t i = 0; i < n; ++i) {
          want_min = x[i] < want_min ? x[i] : want_min;
          want_max = x[i] > want_max ? x[i] : want_max;
        }
        std::int32_t got_min = 12345, got_max = -12345;
        nnhal::simd::quant8_min_max(k, x, n, &got_min, &got_max);
        CHECK(got_min == want_min);
        CHECK(got_max == want_max);
      }
  }
}

}  // namespace

TEST_CASE("simd::quant8_softmax min_max: the row's minimum and maximum, uint8 and int8") {
  st::for_each_target([](const st::Target& t) {
    check_min_max<std::uint8_t>(t, 5);
    check_min_max<std::int8_t>(t, 6);
  });
}
