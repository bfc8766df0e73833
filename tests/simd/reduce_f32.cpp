// simd::reduce_f32 (include/nnhal/simd/reduce_f32.hpp) on every compiled target this CPU runs,
// rows of every size around the vector width (float and byte lanes), misaligned, with guards:
// max / min (float with NaN, infinities and signed zeros; uint8 and int8) and the 8-bit mean bit
// for bit against the sequential loops of the scalar kernels; float sums and products against
// double within the error bounds derived in include/nnhal/simd/reduce_f32-inl.h.
#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "nnhal/simd/reduce_f32.hpp"
#include "simd/simd_tester.hpp"

namespace st = nnhal::test::simd;

namespace {

constexpr double kU = 1.0 / 16777216.0;  // 2^-24, float's unit roundoff

double gamma_d(double d) { return d * kU / (1.0 - d * kU); }

/// The sequential loops of the scalar kernels (nnhal/kernels/common/reduce.hpp).
template <class T>
T seq_max(const T* p, std::size_t n, T init) {
  T a = init;
  for (std::size_t i = 0; i < n; ++i) a = p[i] > a ? p[i] : a;
  return a;
}
template <class T>
T seq_min(const T* p, std::size_t n, T init) {
  T a = init;
  for (std::size_t i = 0; i < n; ++i) a = p[i] < a ? p[i] : a;
  return a;
}
template <class T>
T seq_mean(const T* p, std::size_t n) {
  if (n == 0) return 0;
  std::int64_t s = 0;
  for (std::size_t i = 0; i < n; ++i) s += p[i];
  return static_cast<T>(s / static_cast<std::int64_t>(n));
}

/// Bytes placed `offset` bytes after a 64-byte boundary, between 64 guard bytes on each side.
template <class T>
class Bytes {
 public:
  Bytes(const std::vector<T>& values, std::size_t offset) : n_(values.size()), storage_(values.size() + 256 + offset) {
    const auto base = reinterpret_cast<std::uintptr_t>(storage_.data());
    begin_ = (64 - base % 64) % 64 + 64 + offset;
    for (T& b : storage_) b = kGuard;
    if (n_ != 0) std::memcpy(data(), values.data(), n_);
  }
  T* data() { return storage_.data() + begin_; }
  bool guards_intact() const {
    for (std::size_t i = 0; i < storage_.size(); ++i)
      if ((i < begin_ || i >= begin_ + n_) && storage_[i] != kGuard) return false;
    return true;
  }

 private:
  static constexpr T kGuard = static_cast<T>(0x5a);
  std::size_t n_;
  std::vector<T> storage_;
  std::size_t begin_ = 0;
};

template <class T>
std::vector<T> random_bytes(std::size_t n, std::uint32_t seed) {
  std::mt19937 gen(seed);
  std::vector<T> v(n);
  for (T& b : v) b = static_cast<T>(gen());
  return v;
}

using RowFn = void (*)(const float*, std::size_t, std::size_t, float*);

/// Runs `fn` over `rows` rows of `values` from a buffer at input offset `off`; checks guards
/// and that the input is unchanged; returns the outputs.
std::vector<float> run_rows(RowFn fn, const std::vector<float>& values, std::size_t rows, std::size_t n, std::size_t off) {
  st::Buffer in(values.size(), off), out(rows, (off + 1) % 4);
  in.assign(values);
  fn(in.data(), rows, n, out.data());
  CHECK(in.guards_intact());
  CHECK(out.guards_intact());
  CHECK((values.empty() || std::memcmp(in.data(), values.data(), values.size() * sizeof(float)) == 0));
  return {out.span().begin(), out.span().end()};
}

}  // namespace

TEST_CASE("simd::reduce_f32 sum: within gamma_d * sum|x| of the exact sum, d = n / 4N + N + 6") {
  st::for_each_target([](const st::Target& t) {
    const auto& k = nnhal::simd::reduce_f32(t.target);
    const std::size_t N = t.lanes_f32();
    std::uint32_t seed = 5;
    for (const std::size_t n : st::sizes(N))
      for (const std::size_t rows : {std::size_t{1}, std::size_t{3}})
        for (const std::size_t off : st::kOffsets) {
          CAPTURE(n);
          CAPTURE(rows);
          CAPTURE(off);
          // Mixed signs and magnitudes: cancellation makes the bound relative to sum|x|.
          std::vector<float> values = st::uniform(rows * n, -1.0f, 1.0f, ++seed);
          for (std::size_t i = 0; i < values.size(); i += 5) values[i] *= 1024.0f;
          const std::vector<float> got = run_rows(k.sum, values, rows, n, off);
          std::vector<double> want(rows), bound(rows);
          const double d = std::ceil(static_cast<double>(n) / static_cast<double>(4 * N)) + static_cast<double>(N) + 6.0;
          for (std::size_t r = 0; r < rows; ++r) {
            double s = 0.0, a = 0.0;
            for (std::size_t i = 0; i < n; ++i) {
              s += values[r * n + i];
              a += std::fabs(values[r * n + i]);
            }
            want[r] = s;
            bound[r] = gamma_d(d) * a;
          }
          st::check_within(got, want, bound);
          if (n == 0)
            for (float v : got) CHECK(st::same_float(v, 0.0f));
        }
  });
}

TEST_CASE("simd::reduce_f32 prod: within gamma_(n + 4N) relative of the exact product") {
  st::for_each_target([](const st::Target& t) {
    const auto& k = nnhal::simd::reduce_f32(t.target);
    const std::size_t N = t.lanes_f32();
    std::uint32_t seed = 50;
    for (const std::size_t n : st::sizes(N))
      for (const std::size_t off : st::kOffsets) {
        CAPTURE(n);
        CAPTURE(off);
        const std::size_t rows = 2;
        // Factors near 1 (no intermediate overflow or underflow in any order), negative ones too.
        std::vector<float> values = st::uniform(rows * n, 0.99f, 1.01f, ++seed);
        for (std::size_t i = 3; i < values.size(); i += 7) values[i] = -values[i];
        const std::vector<float> got = run_rows(k.prod, values, rows, n, off);
        std::vector<double> want(rows), bound(rows);
        for (std::size_t r = 0; r < rows; ++r) {
          double p = 1.0;
          for (std::size_t i = 0; i < n; ++i) p *= values[r * n + i];
          want[r] = p;
          bound[r] = gamma_d(static_cast<double>(n + 4 * N)) * std::fabs(p);
        }
        st::check_within(got, want, bound);
      }
  });
}

TEST_CASE("simd::reduce_f32 max / min: the sequential loop's result bit for bit (NaN skipped, first zero kept)") {
  const float inf = std::numeric_limits<float>::infinity();
  st::for_each_target([&](const st::Target& t) {
    const auto& k = nnhal::simd::reduce_f32(t.target);
    std::uint32_t seed = 100;
    for (const std::size_t n : st::sizes(t.lanes_f32()))
      for (const std::size_t off : st::kOffsets)
        for (int pattern = 0; pattern < 4; ++pattern) {
          CAPTURE(n);
          CAPTURE(off);
          CAPTURE(pattern);
          const std::size_t rows = 3;
          std::vector<float> values = st::special_mix(rows * n, ++seed);
          if (pattern == 1)  // zeros of both signs only, or with NaN: the result is a zero
            for (std::size_t i = 0; i < values.size(); ++i) values[i] = (i * 7 % 3 == 0) ? -0.0f : 0.0f;
          if (pattern == 2)  // NaN everywhere: the empty result (-inf / +inf)
            for (float& v : values) v = std::numeric_limits<float>::quiet_NaN();
          if (pattern == 3)  // negative values with zeros of both signs and NaN mixed in
            for (std::size_t i = 0; i < values.size(); ++i)
              values[i] = i % 5 == 0 ? std::numeric_limits<float>::quiet_NaN()
                                     : i % 3 == 0 ? (i % 2 ? 0.0f : -0.0f) : -std::fabs(values[i]);
          const std::vector<float> got_max = run_rows(k.max, values, rows, n, off);
          const std::vector<float> got_min = run_rows(k.min, values, rows, n, off);
          std::vector<float> want_max(rows), want_min(rows);
          for (std::size_t r = 0; r < rows; ++r) {
            want_max[r] = seq_max(values.data() + r * n, n, -inf);
            want_min[r] = seq_min(values.data() + r * n, n, inf);
          }
          st::check_same(got_max, want_max);
          st::check_same(got_min, want_min);
        }
  });
}

TEST_CASE_TEMPLATE("simd::reduce_f32 8-bit max / min / mean: exact", T, std::uint8_t, std::int8_t) {
  st::for_each_target([](const st::Target& t) {
    const auto& k = nnhal::simd::reduce_f32(t.target);
    constexpr bool kSigned = std::is_same_v<T, std::int8_t>;
    using Fn = void (*)(const T*, std::size_t, std::size_t, T*);
    Fn max = nullptr, min = nullptr, mean = nullptr;
    if constexpr (kSigned) {
      max = k.max_i8;
      min = k.min_i8;
      mean = k.mean_i8;
    } else {
      max = k.max_u8;
      min = k.min_u8;
      mean = k.mean_u8;
    }
    const T lo = std::numeric_limits<T>::lowest(), hi = std::numeric_limits<T>::max();
    std::uint32_t seed = 200;
    for (const std::size_t n : st::sizes(4 * t.lanes_f32()))  // byte lanes
      for (const std::size_t off : {std::size_t{0}, std::size_t{1}, std::size_t{7}})
        for (int pattern = 0; pattern < 3; ++pattern) {
          CAPTURE(n);
          CAPTURE(off);
          CAPTURE(pattern);
          const std::size_t rows = 3;
          std::vector<T> values = random_bytes<T>(rows * n, ++seed);
          if (pattern == 1)  // the extremes everywhere: the sums at their largest / smallest
            for (std::size_t i = 0; i < values.size(); ++i) values[i] = i % 2 ? hi : (i % 3 ? lo : hi);
          if (pattern == 2)
            for (T& v : values) v = lo;
          for (const Fn fn : {max, min, mean}) {
            Bytes<T> in(values, off);
            std::vector<T> init(rows, T{0x11});
            Bytes<T> out(init, (off + 3) % 8);
            fn(in.data(), rows, n, out.data());
            CHECK(in.guards_intact());
            CHECK(out.guards_intact());
            CHECK((values.empty() || std::memcmp(in.data(), values.data(), values.size()) == 0));
            for (std::size_t r = 0; r < rows; ++r) {
              const T* row = values.data() + r * n;
              const T want = fn == max ? seq_max(row, n, lo) : fn == min ? seq_min(row, n, hi) : seq_mean(row, n);
              CAPTURE(r);
              CHECK(static_cast<int>(out.data()[r]) == static_cast<int>(want));
            }
          }
        }
  });
}
