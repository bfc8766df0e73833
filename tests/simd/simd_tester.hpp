#pragma once
/// \file
/// Shared harness for checking a SIMD kernel against its reference (doctest).
///
/// What every SIMD kernel test covers with it:
///   - every Highway target compiled into the test binary that this CPU can run
///     (for_each_target over simd::compiled_targets(), not only the one simd::chosen()
///     picked; the test takes the family's table of each target, e.g.
///     simd::fully_connected_f32_table(t.target)), each failure naming the target and its vector width N;
///   - sizes below, at and above N, with tails: 0, 1, 2, 3, N-1, N, N+1, 2N+3, 4N+5 (past a
///     4-vector unrolled step), 1000, 4099 (sizes(N)), or any list the test passes;
///   - unaligned data: every input and output starts 0, 1 or 3 floats after a 64-byte boundary
///     (offsets()), independently per buffer;
///   - buffer overruns: each buffer has guard floats before and after it that must be intact
///     afterwards (Buffer::guards_intact), and inputs must be left unchanged;
///   - in-place operation (out aliasing an input) where the kernel allows it, by the test.
/// Comparison helpers: bitwise equality (same_float: identical bits, or both NaN) for kernels
/// that promise the reference's exact results, and an absolute bound per element for kernels
/// that reorder additions.

#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "nnhal/simd/dispatch.hpp"

namespace nnhal::test::simd {

using Target = nnhal::simd::TargetInfo;

/// Calls f(target) for every compiled target this CPU can run, best first, with the target's
/// name and float lanes captured for the failure messages of f's checks.
template <class F>
void for_each_target(F&& f) {
  const std::span<const Target> targets = nnhal::simd::compiled_targets();
  REQUIRE(!targets.empty());
  for (const Target& t : targets) {
    const std::string target = t.name;
    const std::size_t lanes = t.lanes_f32();
    CAPTURE(target);
    CAPTURE(lanes);
    f(t);
  }
}

/// Sizes around the vector width N (deduplicated, ascending order not required).
inline std::vector<std::size_t> sizes(std::size_t N) {
  std::vector<std::size_t> out;
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{3}, N - 1, N,
                        N + 1, 2 * N + 3, 4 * N + 5, std::size_t{1000}, std::size_t{4099}}) {
    bool seen = false;
    for (std::size_t m : out) seen = seen || m == n;
    if (!seen) out.push_back(n);
  }
  return out;
}

/// Misalignments (in floats after a 64-byte boundary) every buffer is tried at.
inline constexpr std::size_t kOffsets[] = {0, 1, 3};

/// A float array placed `offset` floats after a 64-byte boundary, between guard floats.
class Buffer {
 public:
  static constexpr std::size_t kGuard = 32;  ///< guard floats on each side (>= one AVX-512 vector)

  Buffer(std::size_t n, std::size_t offset) : n_(n), storage_(n + 2 * kGuard + 16 + offset) {
    const auto base = reinterpret_cast<std::uintptr_t>(storage_.data());
    const std::size_t skip = ((64 - base % 64) % 64) / sizeof(float);  // to the 64-byte boundary
    begin_ = skip + kGuard + offset;
    for (float& f : storage_) f = guard_value();
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  float* data() { return storage_.data() + begin_; }
  const float* data() const { return storage_.data() + begin_; }
  std::size_t size() const { return n_; }
  std::span<float> span() { return {data(), n_}; }
  std::span<const float> span() const { return {data(), n_}; }
  float& operator[](std::size_t i) { return data()[i]; }
  float operator[](std::size_t i) const { return data()[i]; }

  /// Copies `values` (which must have size() elements) into the buffer.
  void assign(std::span<const float> values) {
    REQUIRE(values.size() == n_);
    if (n_ != 0) std::memcpy(data(), values.data(), n_ * sizeof(float));
  }

  /// True when nothing before or after the n floats was written.
  bool guards_intact() const {
    for (std::size_t i = 0; i < storage_.size(); ++i)
      if ((i < begin_ || i >= begin_ + n_) && !same_bits(storage_[i], guard_value())) return false;
    return true;
  }

 private:
  static float guard_value() { return -12345.678f; }
  static bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

  std::size_t n_;
  std::vector<float> storage_;
  std::size_t begin_ = 0;
};

/// Deterministic values: uniform in [lo, hi], seeded per test so failures reproduce.
inline std::vector<float> uniform(std::size_t n, float lo, float hi, std::uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float& f : v) f = dist(gen);
  return v;
}

/// Values that stress exactness: random normals of all magnitudes and signs, mixed with zeros of
/// both signs, infinities, NaN, denormals, the extremes and values near the clamp bounds
/// (0, +-1, 6). Every 7th element or so is special.
inline std::vector<float> special_mix(std::size_t n, std::uint32_t seed) {
  using L = std::numeric_limits<float>;
  static constexpr float kSpecial[] = {0.0f,
                                       -0.0f,
                                       L::infinity(),
                                       -L::infinity(),
                                       L::quiet_NaN(),
                                       L::denorm_min(),
                                       -L::denorm_min(),
                                       L::min(),
                                       L::max(),
                                       -L::max(),
                                       1.0f,
                                       -1.0f,
                                       6.0f,
                                       5.9999995f,
                                       1.0000001f,
                                       -1.0000001f,
                                       1e-30f,
                                       3e38f};
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> mant(-1.0f, 1.0f);
  std::uniform_int_distribution<int> expo(-40, 40);
  std::uniform_int_distribution<std::size_t> pick(0, std::size(kSpecial) - 1);
  std::uniform_int_distribution<int> coin(0, 6);
  std::vector<float> v(n);
  for (float& f : v) f = coin(gen) == 0 ? kSpecial[pick(gen)] : std::ldexp(mant(gen), expo(gen));
  return v;
}

/// Same value: identical bits, or both NaN (NaN payloads are not part of the contract).
inline bool same_float(float a, float b) {
  if (std::isnan(a) && std::isnan(b)) return true;
  return std::memcmp(&a, &b, sizeof a) == 0;
}

/// Human-readable value with its bit pattern, for failure messages.
inline std::string describe(float v) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &v, sizeof v);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g (0x%08x)", static_cast<double>(v),
                static_cast<unsigned>(bits));
  return buf;
}

/// Checks got[i] == want[i] bit for bit (same_float); reports the first mismatch and the count.
inline void check_same(std::span<const float> got, std::span<const float> want) {
  REQUIRE(got.size() == want.size());
  std::size_t bad = 0, first = 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!same_float(got[i], want[i]) && bad++ == 0) first = i;
  if (bad != 0) {
    INFO("first mismatch at ", first, ": got ", describe(got[first]), ", want ",
         describe(want[first]));
    CHECK(bad == 0);
  } else {
    CHECK(bad == 0);
  }
}

/// Checks |got[i] - want[i]| <= bound[i] (and NaN matches NaN only); reports the worst element.
inline void check_within(std::span<const float> got, std::span<const double> want,
                         std::span<const double> bound) {
  REQUIRE(got.size() == want.size());
  REQUIRE(got.size() == bound.size());
  std::size_t bad = 0, worst = 0;
  double worst_ratio = 0.0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double g = got[i], w = want[i];
    const bool nan_ok = std::isnan(g) && std::isnan(w);
    const double err = nan_ok ? 0.0 : std::fabs(g - w);
    const double ratio = bound[i] > 0.0
                             ? err / bound[i]
                             : (err == 0.0 ? 0.0 : std::numeric_limits<double>::infinity());
    if (!(err <= bound[i])) ++bad;
    if (!(ratio <= worst_ratio)) {
      worst_ratio = ratio;
      worst = i;
    }
  }
  if (!got.empty()) {
    INFO("worst element ", worst, ": got ", describe(got[worst]), ", want ", want[worst],
         ", bound ", bound[worst], " (error/bound ", worst_ratio, ")");
    CHECK(bad == 0);
  }
}

/// The misalignment case being run, for failure messages.
struct Offsets {
  std::size_t in = 0, out = 0;
};

/// Calls f(n, offsets) for every size and every combination of input and output offsets.
template <class F>
void for_each_case(const std::vector<std::size_t>& ns, F&& f) {
  for (std::size_t n : ns)
    for (std::size_t oi : kOffsets)
      for (std::size_t oo : kOffsets) {
        CAPTURE(n);
        CAPTURE(oi);
        CAPTURE(oo);
        f(n, Offsets{oi, oo});
      }
}

}  // namespace nnhal::test::simd
