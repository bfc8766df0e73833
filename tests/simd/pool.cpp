// simd::pool (include/nnhal/simd/pool.hpp) on every compiled target this CPU runs, against the
// plain pooling kernel (nnhal/kernels/common/pool.hpp, kernels::pool::reference) on NHWC
// images: channel counts around every vector width (float and byte lanes, with tails), random
// windows, strides and paddings, clamp ranges, misaligned input and output with guards around
// the output. Float max and average (also with NaN, infinities and signed zeros) and the 8-bit
// max and average bit for bit; float L2 within a few ulp (see the -inl file); the 8-bit average
// also over a window of more than 65000 elements (its 64-bit path).
#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "nnhal/kernels/common/pool.hpp"
#include "simd/simd_tester.hpp"

namespace st = nnhal::test::simd;
namespace kp = nnhal::kernels::pool;
namespace win = nnhal::kernels::window;

namespace {

/// `n` elements of T placed `offset` elements after a 64-byte boundary, between guards.
template <class T>
class Guarded {
 public:
  Guarded(std::size_t n, std::size_t offset) : n_(n), storage_(n + 2 * kGuard + 64 + offset) {
    const auto base = reinterpret_cast<std::uintptr_t>(storage_.data());
    begin_ = ((64 - base % 64) % 64) / sizeof(T) + kGuard + offset;
    for (T& v : storage_) v = guard();
  }
  T* data() { return storage_.data() + begin_; }
  bool guards_intact() const {
    for (std::size_t i = 0; i < storage_.size(); ++i)
      if ((i < begin_ || i >= begin_ + n_) && std::memcmp(&storage_[i], &kGuardBits, sizeof(T)) != 0) return false;
    return true;
  }

 private:
  static T guard() {
    if constexpr (std::is_same_v<T, float>) return -12345.678f;
    return static_cast<T>(0x5A);
  }
  static constexpr std::size_t kGuard = 64;
  static inline const T kGuardBits = guard();
  std::size_t n_;
  std::vector<T> storage_;
  std::size_t begin_ = 0;
};

struct Case {
  nnhal::simd::PoolArgs args;
  win::Geometry g;
  win::Image si, so;
};

/// A random NHWC case with `channels` channels.
Case random_case(std::mt19937& gen, std::size_t channels) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen); };
  for (;;) {
    win::Geometry g;
    g.filter_h = pick(1, 4), g.filter_w = pick(1, 4), g.stride_h = pick(1, 3), g.stride_w = pick(1, 3);
    g.pad_h = {pick(0, g.filter_h - 1), pick(0, g.filter_h - 1)};
    g.pad_w = {pick(0, g.filter_w - 1), pick(0, g.filter_w - 1)};
    const auto n = static_cast<std::uint32_t>(pick(1, 2)), h = static_cast<std::uint32_t>(pick(1, 7)),
               w = static_cast<std::uint32_t>(pick(1, 7));
    const std::int64_t oh = win::output_size(h, g.filter_h, g.stride_h, 1, g.pad_h);
    const std::int64_t ow = win::output_size(w, g.filter_w, g.stride_w, 1, g.pad_w);
    if (oh <= 0 || ow <= 0) continue;
    g.out_h = static_cast<std::uint32_t>(oh), g.out_w = static_cast<std::uint32_t>(ow);
    Case c;
    c.g = g;
    const auto ch = static_cast<std::uint32_t>(channels);
    c.si = win::Image::of(nnhal::Dims{n, h, w, ch}, false);
    c.so = win::Image::of(nnhal::Dims{n, g.out_h, g.out_w, ch}, false);
    c.args = kp::simd_args(c.si, c.so, g);
    return c;
  }
}

template <class T>
std::vector<T> random_values(std::mt19937& gen, std::size_t n, bool special) {
  std::vector<T> v(n);
  if constexpr (std::is_same_v<T, float>) {
    if (special) return st::special_mix(n, static_cast<std::uint32_t>(gen()));
    std::uniform_real_distribution<float> d(-4.0f, 4.0f);
    for (T& x : v) x = d(gen);
  } else {
    (void)special;
    std::uniform_int_distribution<int> d(std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max());
    for (T& x : v) x = static_cast<T>(d(gen));
  }
  return v;
}

bool same(float a, float b) { return st::same_float(a, b); }
bool same(std::uint8_t a, std::uint8_t b) { return a == b; }
bool same(std::int8_t a, std::int8_t b) { return a == b; }

bool near(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return std::fabs(a - b) <= 4.0f * std::numeric_limits<float>::epsilon() * std::max(1.0f, std::fabs(b));
}

/// Runs kind K over element type T on `target`'s table against the plain kernel.
template <kp::Kind K, class T>
void check_kind(const nnhal::simd::Pool& table, std::size_t lanes8) {
  std::mt19937 gen(static_cast<unsigned>(static_cast<int>(K) * 17 + sizeof(T)));
  std::vector<std::size_t> channel_counts = st::sizes(lanes8);
  for (std::size_t c : st::sizes(lanes8 / 4)) channel_counts.push_back(c);
  for (std::size_t channels : channel_counts) {
    if (channels == 0 || channels > 300) continue;
    for (int rep = 0; rep < 3; ++rep) {
      const Case cs = random_case(gen, channels);
      const bool special = std::is_same_v<T, float> && K != kp::Kind::kL2 && rep == 2;
      const auto in = random_values<T>(gen, std::size_t{cs.si.n} * cs.si.h * cs.si.w * cs.si.c, special);
      nnhal::FloatRange fr;
      nnhal::quant::QuantRange qr{0, 0};
      if constexpr (!std::is_same_v<T, float>) {
        qr = {std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max()};
        if (rep == 1) qr = {std::numeric_limits<T>::lowest() / 2 + 10, std::numeric_limits<T>::max() / 2 + 3};
      }
      if (rep == 1) fr = {-1.0f, 1.0f};
      const std::size_t out_n = std::size_t{cs.so.n} * cs.so.h * cs.so.w * cs.so.c;
      std::vector<T> want(out_n);
      kp::reference<K>(in.data(), cs.si, want.data(), cs.so, cs.g, fr, qr);
      for (std::size_t offset : st::kOffsets) {
        Guarded<T> x(in.size(), offset), y(out_n, (offset + 1) % 4);
        std::memcpy(x.data(), in.data(), in.size() * sizeof(T));
        kp::run_simd<K>(table, cs.args, x.data(), y.data(), fr, qr);
        INFO("channels ", channels, " rep ", rep, " offset ", offset, " in ", cs.si.h, "x", cs.si.w, " filter ",
             cs.g.filter_h, "x", cs.g.filter_w, " stride ", cs.g.stride_h, "x", cs.g.stride_w);
        std::size_t bad = 0;
        for (std::size_t i = 0; i < out_n; ++i) {
          if constexpr (K == kp::Kind::kL2)
            bad += near(y.data()[i], want[i]) ? 0 : 1;
          else
            bad += same(y.data()[i], want[i]) ? 0 : 1;
        }
        CHECK(bad == 0);
        CHECK(y.guards_intact());
        CHECK(std::memcmp(x.data(), in.data(), in.size() * sizeof(T)) == 0);
      }
    }
  }
}

}  // namespace

TEST_CASE("simd::pool: float32 max, average and L2 against the plain kernel on every target") {
  st::for_each_target([](const st::Target& t) {
    const nnhal::simd::Pool& table = nnhal::simd::pool(t.target);
    const std::size_t lanes = t.lanes_f32();
    check_kind<kp::Kind::kMax, float>(table, lanes);
    check_kind<kp::Kind::kAverage, float>(table, lanes);
    check_kind<kp::Kind::kL2, float>(table, lanes);
  });
}

TEST_CASE("simd::pool: 8-bit max and average against the plain kernel on every target") {
  st::for_each_target([](const st::Target& t) {
    const nnhal::simd::Pool& table = nnhal::simd::pool(t.target);
    const std::size_t lanes8 = 4 * t.lanes_f32();
    check_kind<kp::Kind::kMax, std::uint8_t>(table, lanes8);
    check_kind<kp::Kind::kMax, std::int8_t>(table, lanes8);
    check_kind<kp::Kind::kAverage, std::uint8_t>(table, lanes8);
    check_kind<kp::Kind::kAverage, std::int8_t>(table, lanes8);
  });
}

TEST_CASE("simd::pool: 8-bit average over the largest windows of each path") {
  // One output pixel averaging a 260 x 260 image (67600 elements > kMaxFloatCount), a window
  // just below that limit and an 8 x 16 one (the 16-bit path's largest): the 64-bit path, the
  // float quotient and the shift, with extreme values.
  st::for_each_target([](const st::Target& t) {
    const nnhal::simd::Pool& table = nnhal::simd::pool(t.target);
    for (std::uint32_t side : {260u, 254u, 16u}) {  // 16: the 16-bit path's largest window is 8 x 16
      for (int fill : {0, 1, 2}) {
        win::Geometry g;
        const std::uint32_t h = side == 16 ? 8 : side;
        g.filter_h = static_cast<std::int32_t>(h), g.filter_w = static_cast<std::int32_t>(side);
        g.out_h = g.out_w = 1;
        const std::uint32_t ch = 5;
        const win::Image si = win::Image::of(nnhal::Dims{1, h, side, ch}, false);
        const win::Image so = win::Image::of(nnhal::Dims{1, 1, 1, ch}, false);
        std::vector<std::int8_t> in(std::size_t{h} * side * ch);
        std::mt19937 gen(side + static_cast<unsigned>(fill));
        for (auto& v : in)
          v = fill == 0 ? std::int8_t{-128} : fill == 1 ? std::int8_t{127} : static_cast<std::int8_t>(gen() % 256);
        std::vector<std::uint8_t> uin(in.size());
        for (std::size_t i = 0; i < in.size(); ++i) uin[i] = static_cast<std::uint8_t>(in[i] + 128);
        const nnhal::quant::QuantRange qi{-128, 127}, qu{0, 255};
        std::vector<std::int8_t> want(ch), got(ch);
        std::vector<std::uint8_t> uwant(ch), ugot(ch);
        kp::reference<kp::Kind::kAverage>(in.data(), si, want.data(), so, g, {}, qi);
        kp::reference<kp::Kind::kAverage>(uin.data(), si, uwant.data(), so, g, {}, qu);
        const auto args = kp::simd_args(si, so, g);
        table.avg_i8(args, in.data(), got.data(), qi.min, qi.max);
        table.avg_u8(args, uin.data(), ugot.data(), qu.min, qu.max);
        CHECK(got == want);
        CHECK(ugot == uwant);
      }
    }
  });
}
