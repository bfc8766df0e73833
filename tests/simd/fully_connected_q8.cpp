// simd::fully_connected_q8 (include/nnhal/simd/fully_connected_q8.hpp) on every compiled target
// this CPU runs, for uint8_t and int8_t weights, bit for bit against the reference's sum
// (int32 with wrap-around): depths around every vector width (tails), unit counts around the
// 4-unit groups, every offset extreme, misaligned rows, and sums that wrap.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "nnhal/simd/fully_connected_q8.hpp"
#include "simd/simd_tester.hpp"

namespace st = nnhal::test::simd;

namespace {

template <class W>
std::vector<std::int32_t> reference(const std::vector<std::int16_t>& x, const W* w, std::int32_t w_offset,
                                    std::size_t depth, std::size_t units) {
  std::vector<std::int32_t> out(units);
  for (std::size_t u = 0; u < units; ++u) {
    std::uint32_t s = 0;
    for (std::size_t k = 0; k < depth; ++k)
      s += static_cast<std::uint32_t>(std::int32_t{x[k]} * (std::int32_t{w[u * depth + k]} + w_offset));
    out[u] = static_cast<std::int32_t>(s);
  }
  return out;
}

template <class W>
void check(const st::Target& t, std::size_t depth, std::size_t units, std::int32_t x_offset, std::int32_t w_offset,
           std::mt19937& gen, bool extremes) {
  std::uniform_int_distribution<int> byte(0, 255);
  std::vector<std::int16_t> x(depth + 1);  // + 1: a misaligned start
  for (std::int16_t& v : x) {
    const int b = extremes ? (byte(gen) & 1 ? 255 : 0) : byte(gen);
    const int e = std::is_signed_v<W> ? b - 128 : b;
    v = static_cast<std::int16_t>(e + x_offset);
  }
  std::vector<W> w(units * depth + 1);
  for (W& v : w) {
    const int b = extremes ? (byte(gen) & 1 ? 255 : 0) : byte(gen);
    v = static_cast<W>(std::is_signed_v<W> ? b - 128 : b);
  }
  const std::vector<std::int16_t> xs(x.begin() + 1, x.end());
  const W* wp = w.data() + 1;
  std::vector<std::int32_t> out(units + 2, 12345);
  const auto& table = nnhal::simd::fully_connected_q8_table(t.target);
  if constexpr (std::is_signed_v<W>)
    table.dot_s8(x.data() + 1, wp, w_offset, depth, units, out.data() + 1);
  else
    table.dot_u8(x.data() + 1, wp, w_offset, depth, units, out.data() + 1);
  const std::vector<std::int32_t> want = reference(xs, wp, w_offset, depth, units);
  std::size_t bad = 0;
  for (std::size_t u = 0; u < units; ++u) bad += out[u + 1] != want[u];
  CHECK(bad == 0);
  CHECK(out[0] == 12345);
  CHECK(out[units + 1] == 12345);
}

template <class W>
void check_all(const st::Target& t) {
  std::mt19937 gen(7);
  // Offsets: the extremes of the 8-bit types' zero points, and 0.
  const std::int32_t lo = std::is_signed_v<W> ? -127 : -255, hi = std::is_signed_v<W> ? 128 : 0;
  for (std::size_t depth : {1u, 2u, 7u, 8u, 15u, 16u, 17u, 31u, 32u, 33u, 63u, 64u, 65u, 100u, 1024u}) {
    for (std::size_t units : {1u, 3u, 4u, 5u, 8u, 9u}) {
      CAPTURE(depth);
      CAPTURE(units);
      check<W>(t, depth, units, lo, hi, gen, false);
      check<W>(t, depth, units, hi, lo, gen, false);
      check<W>(t, depth, units, 0, 0, gen, false);
      check<W>(t, depth, units, lo, lo, gen, true);
    }
  }
  // Sums past the int32 range: the reference's wrap-around.
  check<W>(t, 70000, 4, lo, lo, gen, true);
}

}  // namespace

TEST_CASE("simd::fully_connected_q8 gives the reference's int32 sums bit for bit (uint8 and int8 weights)") {
  st::for_each_target([](const st::Target& t) {
    check_all<std::uint8_t>(t);
    check_all<std::int8_t>(t);
  });
}
