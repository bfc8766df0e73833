#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <initializer_list>

#include "nnhal/core/half.hpp"

using nnhal::Half;

namespace {
// Independent decoder of binary16 by its definition: (-1)^s * 2^(e-15) * (1 + m/1024), with
// subnormals 2^-14 * m/1024.
double decode(std::uint16_t h) {
  const int s = h >> 15, e = (h >> 10) & 0x1F, m = h & 0x3FF;
  const double sign = s ? -1.0 : 1.0;
  if (e == 0) return sign * std::ldexp(m / 1024.0, -14);
  if (e == 31) return m ? NAN : sign * INFINITY;
  return sign * std::ldexp(1.0 + m / 1024.0, e - 15);
}
}  // namespace

TEST_CASE("Half: every bit pattern converts to float exactly") {
  for (std::uint32_t b = 0; b < 0x10000; ++b) {
    const auto h = static_cast<std::uint16_t>(b);
    const double want = decode(h);
    const float got = Half::to_float(h);
    if (std::isnan(want)) {
      CHECK(std::isnan(got));
    } else {
      REQUIRE(static_cast<double>(got) == want);
      CHECK(std::signbit(got) == ((h & 0x8000) != 0));
    }
  }
}

TEST_CASE("Half: float to half rounds to nearest, ties to even") {
  // Round trip of every finite half is exact.
  for (std::uint32_t b = 0; b < 0x10000; ++b) {
    const auto h = static_cast<std::uint16_t>(b);
    if (((h >> 10) & 0x1F) == 31) continue;
    CHECK(Half(Half::to_float(h)).bits == h);
  }
  // Midpoints between neighbours go to the even neighbour; just above goes up.
  for (std::uint16_t h : {std::uint16_t{0x3C00}, std::uint16_t{0x3C01}, std::uint16_t{0x0001},
                          std::uint16_t{0x03FF}, std::uint16_t{0x7BFE}}) {
    const double lo = decode(h), hi = decode(static_cast<std::uint16_t>(h + 1));
    const auto mid = static_cast<float>((lo + hi) / 2);
    const std::uint16_t even = (h & 1) == 0 ? h : static_cast<std::uint16_t>(h + 1);
    CHECK(Half(mid).bits == even);
    CHECK(Half(std::nextafter(mid, 1e9f)).bits == h + 1);
    CHECK(Half(std::nextafter(mid, -1e9f)).bits == h);
  }
}

TEST_CASE("Half: overflow, underflow, infinities and NaN") {
  CHECK(Half(65504.0f).bits == 0x7BFF);
  CHECK(Half(65520.0f).bits == 0x7C00);  // exactly halfway to the next binade: rounds to inf
  CHECK(Half(-1e30f).bits == 0xFC00);
  CHECK(Half(INFINITY).bits == 0x7C00);
  CHECK(std::isnan(static_cast<float>(Half(NAN))));
  CHECK(Half(1e-30f).bits == 0x0000);
  CHECK(Half(-1e-30f).bits == 0x8000);
  CHECK(Half(-0.0f).bits == 0x8000);
  CHECK(Half(std::ldexp(1.0f, -25)).bits == 0x0000);                   // tie with 0: even
  CHECK(Half(std::nextafter(std::ldexp(1.0f, -25), 1.0f)).bits == 1);  // above the tie
}
