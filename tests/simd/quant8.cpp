// simd::quant8 (include/nnhal/simd/quant8.hpp) on every compiled target this CPU runs, for
// uint8_t and int8_t, bit for bit against the scalar reference: DEQUANTIZE over every byte,
// QUANTIZE over values of every magnitude plus exact halfway cases, infinities and NaN, the
// clamp (including a range with lo > hi) and MINIMUM / MAXIMUM in every layout; every size around
// the vector width, misaligned, in place and with guard bytes.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <span>
#include <type_traits>
#include <vector>

#include "nnhal/simd/quant8.hpp"
#include "simd/simd_tester.hpp"

namespace st = nnhal::test::simd;

namespace {

/// Bytes (of E) placed `offset` elements after a 64-byte boundary, between guard bytes.
template <class E>
class Bytes {
 public:
  static constexpr std::size_t kGuard = 64;

  Bytes(std::size_t n, std::size_t offset) : n_(n), storage_(n + 2 * kGuard + 64 + offset, kGuardByte) {
    const auto base = reinterpret_cast<std::uintptr_t>(storage_.data());
    begin_ = (64 - base % 64) % 64 + kGuard + offset;
  }
  E* data() { return reinterpret_cast<E*>(storage_.data() + begin_); }
  std::vector<E> values() const {
    std::vector<E> v(n_);
    if (n_ != 0) std::memcpy(v.data(), storage_.data() + begin_, n_);
    return v;
  }
  void assign(const std::vector<E>& v) {
    REQUIRE(v.size() == n_);
    if (n_ != 0) std::memcpy(storage_.data() + begin_, v.data(), n_);
  }
  bool guards_intact() const {
    for (std::size_t i = 0; i < storage_.size(); ++i)
      if ((i < begin_ || i >= begin_ + n_) && storage_[i] != kGuardByte) return false;
    return true;
  }

 private:
  static constexpr std::uint8_t kGuardByte = 0xA5;
  std::size_t n_;
  std::vector<std::uint8_t> storage_;
  std::size_t begin_ = 0;
};

/// The element type's table of `k`.
template <class E>
const nnhal::simd::Quant8Ops<E>& ops(const nnhal::simd::Quant8& k) {
  if constexpr (std::is_same_v<E, std::uint8_t>)
    return k.u8;
  else
    return k.s8;
}

/// n bytes cycling through all 256 values from a seed-dependent start, shuffled.
template <class E>
std::vector<E> all_bytes(std::size_t n, std::uint32_t seed) {
  std::vector<E> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<E>(static_cast<std::uint8_t>(i + seed));
  std::mt19937 gen(seed);
  std::shuffle(v.begin(), v.end(), gen);
  return v;
}

/// The scalar QUANTIZE kernel's element (nnhal/kernels/quantize.hpp).
template <class E>
E quantize_ref(float x, float scale, std::int32_t zero_point) {
  constexpr auto lo = static_cast<float>(std::numeric_limits<E>::min());
  constexpr auto hi = static_cast<float>(std::numeric_limits<E>::max());
  const float v = static_cast<float>(zero_point) + std::round(x / scale);
  return static_cast<E>(std::max<float>(lo, std::min<float>(hi, v)));
}

/// Byte sizes: the float sizes around N (quantize, dequantize work N floats at a time) and
/// around the byte vector (4N).
std::vector<std::size_t> byte_sizes(std::size_t N) {
  std::vector<std::size_t> s = st::sizes(N);
  for (std::size_t n : {4 * N - 1, 4 * N, 4 * N + 1, 8 * N + 3}) s.push_back(n);
  return s;
}

}  // namespace

TEST_CASE_TEMPLATE("simd::quant8 dequantize: bit for bit scale * (q - zeroPoint)", E, std::uint8_t, std::int8_t) {
  st::for_each_target([](const st::Target& t) {
    const auto& k = ops<E>(nnhal::simd::quant8(t.target));
    for (const float scale : {1.0f, 0.05f, 1.0f / 256, 3.7e-3f, 1e-30f, 2e30f})
      for (const std::int32_t zp : {0, 1, 127, std::is_signed_v<E> ? -128 : 255}) {
        CAPTURE(scale);
        CAPTURE(zp);
        st::for_each_case(byte_sizes(t.lanes_f32()), [&](std::size_t n, st::Offsets o) {
          const std::vector<E> q = all_bytes<E>(n, static_cast<std::uint32_t>(n + zp));
          Bytes<E> in(n, o.in);
          in.assign(q);
          st::Buffer out(n, o.out);
          k.dequantize(in.data(), out.data(), n, scale, zp);
          std::vector<float> want(n);
          for (std::size_t i = 0; i < n; ++i) want[i] = scale * static_cast<float>(static_cast<std::int32_t>(q[i]) - zp);
          st::check_same(out.span(), want);
          CHECK(in.guards_intact());
          CHECK(out.guards_intact());
          CHECK(in.values() == q);
        });
      }
  });
}

TEST_CASE_TEMPLATE("simd::quant8 quantize: bit for bit the reference (round half away from zero, NaN to the top)", E,
                   std::uint8_t, std::int8_t) {
  st::for_each_target([](const st::Target& t) {
    const auto& k = ops<E>(nnhal::simd::quant8(t.target));
    for (const float scale : {1.0f, 0.05f, 1.0f / 256, 0.5f, 3.7e-3f, 1e-30f})
      for (const std::int32_t zp : {0, 1, 100, std::is_signed_v<E> ? -128 : 255}) {
        CAPTURE(scale);
        CAPTURE(zp);
        st::for_each_case(byte_sizes(t.lanes_f32()), [&](std::size_t n, st::Offsets o) {
          std::vector<float> x = st::special_mix(n, static_cast<std::uint32_t>(n * 3 + zp));
          // Exact halfway cases (k + 0.5) * scale of both signs, and values around the range.
          for (std::size_t i = 1; i < n; i += 3) {
            const float half = (static_cast<float>(static_cast<int>(i % 301) - 150) + 0.5f) * scale;
            x[i] = i % 2 == 0 ? half : std::nextafter(half, 0.0f);
          }
          st::Buffer in(n, o.in);
          in.assign(x);
          Bytes<E> out(n, o.out);
          k.quantize(in.data(), out.data(), n, scale, zp);
          const std::vector<E> got = out.values();
          std::size_t bad = 0;
          for (std::size_t i = 0; i < n; ++i)
            if (got[i] != quantize_ref<E>(x[i], scale, zp) && bad++ == 0) {
              INFO("first mismatch at ", i, ": x = ", st::describe(x[i]), ", got ", int{got[i]}, ", want ",
                   int{quantize_ref<E>(x[i], scale, zp)});
              CHECK(false);
            }
          CHECK(bad == 0);
          CHECK(in.guards_intact());
          CHECK(out.guards_intact());
        });
      }
  });
}

TEST_CASE_TEMPLATE("simd::quant8 clamp: bit for bit x < lo ? lo : (x > hi ? hi : x)", E, std::uint8_t, std::int8_t) {
  st::for_each_target([](const st::Target& t) {
    const auto& k = ops<E>(nnhal::simd::quant8(t.target));
    constexpr E kMin = std::numeric_limits<E>::min(), kMax = std::numeric_limits<E>::max();
    const E ranges[][2] = {{kMin, kMax}, {static_cast<E>(kMin + 10), static_cast<E>(kMax - 3)},
                           {static_cast<E>(kMin + 100), static_cast<E>(kMin + 100)},
                           {static_cast<E>(kMax - 5), static_cast<E>(kMin + 5)}};  // lo > hi
    for (const auto& r : ranges) {
      const E lo = r[0], hi = r[1];
      CAPTURE(int{lo});
      CAPTURE(int{hi});
      st::for_each_case(byte_sizes(t.lanes_f32()), [&](std::size_t n, st::Offsets o) {
        const std::vector<E> q = all_bytes<E>(n, static_cast<std::uint32_t>(n));
        Bytes<E> in(n, o.in), out(n, o.out);
        in.assign(q);
        k.clamp(in.data(), out.data(), n, lo, hi);
        std::vector<E> want(n);
        for (std::size_t i = 0; i < n; ++i) want[i] = q[i] < lo ? lo : (q[i] > hi ? hi : q[i]);
        CHECK(out.values() == want);
        CHECK(in.values() == q);
        CHECK(in.guards_intact());
        CHECK(out.guards_intact());
        k.clamp(in.data(), in.data(), n, lo, hi);  // in place
        CHECK(in.values() == want);
        CHECK(in.guards_intact());
      });
    }
  });
}

TEST_CASE_TEMPLATE("simd::quant8 min_max: bit for bit std::min / std::max in every layout", E, std::uint8_t,
                   std::int8_t) {
  st::for_each_target([](const st::Target& t) {
    const auto& k = ops<E>(nnhal::simd::quant8(t.target));
    for (const bool min : {false, true})
      for (const bool a_scalar : {false, true})
        for (const bool b_scalar : {false, true}) {
          CAPTURE(min);
          CAPTURE(a_scalar);
          CAPTURE(b_scalar);
          st::for_each_case(byte_sizes(t.lanes_f32()), [&](std::size_t n, st::Offsets o) {
            if (n == 0) return;
            const std::vector<E> a = all_bytes<E>(a_scalar ? 1 : n, static_cast<std::uint32_t>(n + 5));
            const std::vector<E> b = all_bytes<E>(b_scalar ? 1 : n, static_cast<std::uint32_t>(n + 77));
            Bytes<E> ba(a.size(), o.in), bb(b.size(), (o.in + 1) % 4), out(n, o.out);
            ba.assign(a);
            bb.assign(b);
            k.min_max(min, ba.data(), a_scalar, bb.data(), b_scalar, out.data(), n);
            std::vector<E> want(n);
            for (std::size_t i = 0; i < n; ++i) {
              const E x = a[a_scalar ? 0 : i], y = b[b_scalar ? 0 : i];
              want[i] = min ? std::min(x, y) : std::max(x, y);
            }
            CHECK(out.values() == want);
            CHECK(ba.guards_intact());
            CHECK(bb.guards_intact());
            CHECK(out.guards_intact());
            if (!b_scalar) {  // in place over b
              k.min_max(min, ba.data(), a_scalar, bb.data(), b_scalar, bb.data(), n);
              CHECK(bb.values() == want);
            }
          });
        }
  });
}
