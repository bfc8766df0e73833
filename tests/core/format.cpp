#include <doctest/doctest.h>

#include <cfloat>
#include <cinttypes>
#include <climits>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "nnhal/core/format.hpp"

// Every check compares nnhal::vformat with the host C library's vsnprintf (glibc here) for the
// same format and arguments: the text, the returned length, and, when asked, the bytes written
// into a buffer of every capacity from 0 to length + 1 (truncation, NUL, nothing written past
// the capacity).

namespace {

[[gnu::format(printf, 2, 0)]] void compare(bool every_capacity, const char* fmt, va_list args) {
  char expected[1024];
  char actual[1024];
  va_list a;
  va_copy(a, args);
  const int expected_len = std::vsnprintf(expected, sizeof expected, fmt, a);
  va_end(a);
  va_copy(a, args);
  const std::size_t actual_len = nnhal::vformat(actual, sizeof actual, fmt, a);
  va_end(a);
  REQUIRE(expected_len >= 0);
  REQUIRE(static_cast<std::size_t>(expected_len) < sizeof expected);
  INFO("format \"", std::string(fmt), "\"");
  CHECK(std::string(actual) == std::string(expected));
  CHECK(actual_len == static_cast<std::size_t>(expected_len));
  if (!every_capacity) return;
  const std::size_t len = static_cast<std::size_t>(expected_len);
  for (std::size_t cap = 0; cap <= len + 1; ++cap) {
    std::memset(expected, '#', len + 8);
    std::memset(actual, '#', len + 8);
    va_copy(a, args);
    std::vsnprintf(expected, cap, fmt, a);
    va_end(a);
    va_copy(a, args);
    const std::size_t n = nnhal::vformat(actual, cap, fmt, a);
    va_end(a);
    INFO("capacity ", cap);
    CHECK(n == len);
    CHECK(std::string(actual, len + 8) == std::string(expected, len + 8));
  }
}

/// Text and length at full capacity, then at every capacity 0..len+1.
[[gnu::format(printf, 1, 2)]] void same(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  compare(true, fmt, args);
  va_end(args);
}

/// Text and length at full capacity only (the sweeps).
[[gnu::format(printf, 1, 2)]] void same_text(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  compare(false, fmt, args);
  va_end(args);
}

/// %#.Pg against its definition in the C standard, built from glibc's %#e / %#f: glibc 2.36 itself
/// drops the zeros when rounding carries into e-style ("%#g" of 999999.5 prints "1.e+06", the
/// standard asks for "1.00000e+06"); nnhal follows the standard there.
void same_alt_g(double x, int precision) {
  const int p = precision == 0 ? 1 : precision;
  char e_text[128];
  std::snprintf(e_text, sizeof e_text, "%.*e", p - 1, x);
  const char* e = std::strchr(e_text, 'e');
  REQUIRE(e != nullptr);
  const int exponent = std::atoi(e + 1);
  char expected[512];
  if (exponent < -4 || exponent >= p) std::snprintf(expected, sizeof expected, "%#.*e", p - 1, x);
  else std::snprintf(expected, sizeof expected, "%#.*f", p - 1 - exponent, x);
  char actual[512];
  nnhal::format(actual, sizeof actual, "%#.*g", precision, x);
  INFO("%#.", precision, "g of ", e_text);
  CHECK(std::string(actual) == std::string(expected));
}

double from_bits(std::uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

}  // namespace

TEST_CASE("format: plain text, %% and the return value") {
  same("plain text");
  same("100%% done");
  same("%%%s%%", "x");
  char one[1] = {'x'};
  CHECK(nnhal::format(one, 1, "abc") == 3);
  CHECK(one[0] == '\0');
  char untouched = 'x';
  CHECK(nnhal::format(&untouched, 0, "abc%d", 12) == 5);
  CHECK(untouched == 'x');
}

TEST_CASE("format: integers as include/ uses them") {
  const std::size_t sizes[] = {0, 1, 9, 10, 4096, SIZE_MAX};
  for (std::size_t z : sizes) {
    same("%zu", z);
    same("request has %zu outputs", z);
    same("%zx", z);
  }
  const unsigned uns[] = {0u, 1u, 7u, 255u, 65535u, 1000000u, UINT_MAX};
  for (unsigned u : uns) {
    same("%u", u);
    same("%x", u);
    same("%X", u);
    same("%#x", u);
    same("%o", u);
    same("%#o", u);
    same("0x%x", u);
    same("%08x", u);
    same("%-8u|", u);
    same("%.0u", u);
    same("%.5u", u);
    same("%hu %hhu", static_cast<unsigned short>(u), static_cast<unsigned char>(u));
  }
  const int ints[] = {0, 1, -1, 42, -42, 2147483647, INT_MIN};
  for (int d : ints) {
    same("%d", d);
    same("%i", d);
    same("%+d", d);
    same("% d", d);
    same("%5d|%-5d|%05d", d, d, d);
    same("%.3d", d);
    same("%.0d", d);
    same("%+08d", d);
    same("%-+8d|", d);
    same("%*d|%-*d", 6, d, 6, d);
    same("%*d", -6, d);
    same("%.*d", 4, d);
    same("%hd %hhd", static_cast<short>(d), static_cast<signed char>(d));
  }
  const long long lls[] = {0, 1, -1, LLONG_MAX, LLONG_MIN, 1234567890123LL, -1234567890123LL};
  for (long long v : lls) {
    same("%lld", v);
    same("%+lld", v);
    same("%llu", static_cast<unsigned long long>(v));
    same("%10llu", static_cast<unsigned long long>(v));
    same("%016llx", static_cast<unsigned long long>(v));
    same("%#llX", static_cast<unsigned long long>(v));
    same("%llo", static_cast<unsigned long long>(v));
    same("%ld %lu", static_cast<long>(v), static_cast<unsigned long>(v));
    same("%jd %ju", static_cast<std::intmax_t>(v), static_cast<std::uintmax_t>(v));
    same("%td", static_cast<std::ptrdiff_t>(v));
    same("%" PRId64 " %" PRIu64 " %" PRIx64, static_cast<std::int64_t>(v), static_cast<std::uint64_t>(v),
         static_cast<std::uint64_t>(v));
  }
  same("%llu", ULLONG_MAX);
  same("%" PRIu32 " %" PRId32 " %" PRIx32, UINT32_MAX, INT32_MIN, UINT32_MAX);
  same("%" PRIu32 " %" PRId32, std::uint32_t{7}, std::int32_t{-7});
  same("%zd", static_cast<std::ptrdiff_t>(-5));
  same("%#.0o|%#.3o|%#x|%.0x|%#.0x|%+5.0d", 0u, 8u, 0u, 0u, 0u, 0);
  same("%.3d|%.3x|%8.3d|%-8.3d|%+.3d", -5, 10u, 5, 5, 5);
  same("%hhx|%hho|%hhX", static_cast<unsigned char>(200), static_cast<unsigned char>(200), static_cast<unsigned char>(255));
  same("input %zu (%.*s, operand %u) is %lld, it must be one of {%s}", std::size_t{3}, 4, "axisXYZ",
       12u, -7LL, "0, 1");
}

TEST_CASE("format: characters, strings and pointers") {
  same("%c", 'a');
  same("[%3c|%-3c]", 'z', 'z');
  same("%s", "");
  same("%s", "hello");
  same("%12s|%-12s|", "abc", "abc");
  same("%-36s|", "a longer operand name");
  same("%7s|%10s|", "toolongvalue", "x");
  same("%.3s|%.0s|%.10s", "abcdef", "abcdef", "abc");
  same("%.*s", 3, "abcdef");
  same("%.*s|", 0, "abcdef");
  same("%-36.*s|", 5, "abcdefgh");
  same("%*s|", 8, "ab");
  // volatile: the compiler must not see the null (it warns about a null %s argument).
  const char* volatile null_string = nullptr;
  same("%s", null_string);
  same("%10s|", null_string);
  same("%.6s|%.3s|", null_string, null_string);
  int object = 0;
  same("%p", static_cast<void*>(&object));
  same("%20p|%-20p|", static_cast<void*>(&object), static_cast<void*>(&object));
  same("%p", static_cast<void*>(nullptr));
  same("%10p|", static_cast<void*>(nullptr));
}

TEST_CASE("format: floating point, fixed cases") {
  const double values[] = {0.0,
                           -0.0,
                           0.5,
                           -0.5,
                           1.5,
                           2.5,
                           0.05,
                           0.005,
                           0.15,
                           0.25,
                           0.35,
                           0.125,
                           9.9999995,
                           9.5,
                           99.5,
                           999999.5,
                           9999995.0,
                           1e-5,
                           1e-4,
                           0.0001,
                           0.00009999995,
                           123456789.0,
                           1e15,
                           1e16,
                           1e22,
                           1e23,
                           1.0 / 3.0,
                           2.0 / 3.0,
                           3.14159265358979,
                           0.1,
                           1e-12,
                           1e12,
                           5e-324,
                           DBL_MIN,
                           DBL_MAX,
                           DBL_EPSILON,
                           std::numeric_limits<double>::infinity(),
                           -std::numeric_limits<double>::infinity(),
                           std::numeric_limits<double>::quiet_NaN(),
                           -std::numeric_limits<double>::quiet_NaN()};
  for (double base : values) {
    const double neighbours[] = {base, std::nextafter(base, 0.0), std::nextafter(base, INFINITY)};
    for (double x : neighbours) {
      same("%g", x);
      same("%f", x);
      same("%e", x);
      same("%G %F %E", x, x, x);
      same("%.3f", x);
      same("%12.3f|%-12.3f|%012.3f", x, x, x);
      same("%6.1f", x);
      same("%+g|% g|%+e|% f", x, x, x, x);
      same("%#.0f|%#.0e", x, x);
      if (std::isfinite(x))
        for (int p = 0; p <= 9; ++p) same_alt_g(x, p);
      same("%015g|%-15g|%15e", x, x, x);
      same("%.9g|%.17g|%.0g|%.1g", x, x, x, x);
      for (int p = 0; p <= 12; ++p) same_text("%.*f|%.*e|%.*g", p, x, p, x, p, x);
      same_text("%.40e|%.41g|%.20g", x, x, x);
      same_text("%.40f", x);
    }
  }
  same("%05.1f|%+010.2e|% 010.3g|%#5.0e|%010f|%-10f|", std::numeric_limits<double>::infinity(), -1.5, 2.25,
       3.0, -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN());
  same("%*.*f|%-*.*e|%.*g", 12, 3, 3.14159, -12, 2, 2.71828, -1, 1.0 / 3);
  // Half-way cases: exact binary ties round to even, like glibc.
  for (int k = 0; k < 40; ++k) {
    const double x = k + 0.5;
    same_text("%.0f|%.0e|%.1g", x, x, x);
    same_text("%.1f|%.2e", x / 10.0 + 0.0, x / 8.0);
    same_text("%.3f", x / 1024.0);
  }
}

TEST_CASE("format: floating point sweep, magnitudes 1e-12..1e12, precision 0..9") {
  std::mt19937_64 rng(20261127);
  for (int i = 0; i < 4000; ++i) {
    const std::uint64_t mantissa = rng() & ((std::uint64_t{1} << 52) - 1);
    const std::uint64_t exponent = 1023 - 40 + rng() % 81;  // 2^-40 .. 2^40
    const std::uint64_t sign = (rng() & 1u) << 63;
    const double x = from_bits(sign | (exponent << 52) | mantissa);
    same_text("%g|%.3f|%e|%.9g", x, x, x, x);
    const int p = static_cast<int>(rng() % 10);
    same_text("%.*g|%.*e|%.*f", p, x, p, x, p, x);
  }
  // Short decimals (what messages mostly carry): k * 10^-d.
  for (int d = 0; d <= 12; ++d) {
    for (int k = 1; k < 2000; k += 7) {
      const double x = k / std::pow(10.0, d);
      same_text("%g|%.3f|%e|%.9g|%.2g|%.1e", x, x, x, x, x, x);
    }
  }
}

TEST_CASE("format: floating point sweep, every exponent, precision up to 40") {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 1500; ++i) {
    std::uint64_t bits = rng();
    if (((bits >> 52) & 0x7ff) == 0x7ff) bits ^= std::uint64_t{1} << 62;  // keep it finite
    const double x = from_bits(bits);
    same_text("%.17g|%.6e|%.40e|%.41g", x, x, x, x);
    const int p = static_cast<int>(rng() % 41);
    same_text("%.*f", p, x);
  }
  for (int i = 0; i < 200; ++i) {  // denormals
    const double x = from_bits(rng() & ((std::uint64_t{1} << 52) - 1));
    same_text("%.17g|%.40e|%g", x, x, x);
  }
}

TEST_CASE("format: past precision 40") {
  // Documented limit: the value is rounded at the 40th digit and the rest printed as '0'
  // (glibc prints the exact binary expansion). A value whose expansion ends before the 40th
  // digit prints the same as glibc at any precision.
  same_text("%.60f|%.60e|%#.60g", 0.375, 0.375, 0.375);
  same_text("%.80f", 1.0 / 1024.0);
  // 0.1 = 0.1000000000000000055511151231257827021181583...: the first 39 digits agree, the 40th
  // is rounded, then zeros.
  char ours[256];
  char theirs[256];
  const std::size_t n = nnhal::format(ours, sizeof ours, "%.60f", 0.1);
  const int m = std::snprintf(theirs, sizeof theirs, "%.60f", 0.1);
  CHECK(n == static_cast<std::size_t>(m));
  CHECK(std::string(ours, 2 + 39) == std::string(theirs, 2 + 39));
  CHECK(std::string(ours + 2 + 39, 1) == "2");
  CHECK(std::string(ours + 2 + 40) == std::string(20, '0'));
}
