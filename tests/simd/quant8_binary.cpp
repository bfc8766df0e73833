// nnhal::simd::quant8_binary (include/nnhal/simd/quant8_binary.hpp) on every compiled target
// this CPU runs, against the scalar reference of the quantized ADD / SUB / MUL kernels
// (arithmetic::add_quant_one / mul_quant_one, the reference's integer rules step for step):
// bit-exact equality over random inputs, random scales and zero points, every fused activation,
// sizes around the vector width with tails, misaligned buffers with guard bytes, a scalar second
// operand and in-place output. The vector requantization alone against
// quant::multiply_by_quantized_multiplier over the whole int32 range.

#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "nnhal/kernels/common/arithmetic.hpp"
#include "nnhal/kernels/common/quantization.hpp"
#include "nnhal/simd/quant8_binary.hpp"
#include "simd/simd_tester.hpp"

// This file's own scope: test files are compiled in groups (NNHAL_UNITY_TESTS).
namespace test_simd_quant8_binary {

namespace {

namespace ar = nnhal::kernels::arithmetic;
namespace quant = nnhal::quant;
namespace st = nnhal::test::simd;
using nnhal::FusedActivationFunc;
using nnhal::RtOperand;

/// An array of E placed `offset` elements after a 64-byte boundary, between guard bytes.
template <class E>
class Bytes {
 public:
  static constexpr std::size_t kGuard = 64;
  Bytes(std::size_t n, std::size_t offset) : n_(n), storage_(n + 2 * kGuard + 64 + offset, guard()) {
    const auto base = reinterpret_cast<std::uintptr_t>(storage_.data());
    begin_ = (64 - base % 64) % 64 + kGuard + offset;
  }
  E* data() { return storage_.data() + begin_; }
  E& operator[](std::size_t i) { return data()[i]; }
  bool guards_intact() const {
    for (std::size_t i = 0; i < storage_.size(); ++i)
      if ((i < begin_ || i >= begin_ + n_) && storage_[i] != guard()) return false;
    return true;
  }

 private:
  static E guard() { return static_cast<E>(0x5a); }
  std::size_t n_;
  std::vector<E> storage_;
  std::size_t begin_ = 0;
};

/// Random quantization of an 8-bit operand: scale log-uniform over [2^-10, 2^4], any zero point
/// of the type.
template <class E>
RtOperand random_operand(std::mt19937& gen) {
  std::uniform_real_distribution<double> log_scale(-10.0, 4.0);
  std::uniform_int_distribution<int> zp(std::is_signed_v<E> ? -128 : 0, std::is_signed_v<E> ? 127 : 255);
  RtOperand r;
  r.scale = static_cast<float>(std::exp2(log_scale(gen)));
  r.zero_point = zp(gen);
  return r;
}

constexpr FusedActivationFunc kActivations[] = {FusedActivationFunc::NONE, FusedActivationFunc::RELU,
                                                FusedActivationFunc::RELU1, FusedActivationFunc::RELU6};

enum class Kind { kAdd, kSub, kMul };

/// Runs one operation of `kind` over random data on target t's table and compares every
/// element with the scalar reference.
template <class E>
void check_op(const st::Target& t, Kind kind, std::uint32_t seed) {
  const auto& k = nnhal::simd::quant8_binary(t.target);
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> value(std::numeric_limits<E>::min(), std::numeric_limits<E>::max());
  const auto storage = quant::storage_range<E>();
  std::size_t compared = 0;
  for (const std::size_t n : st::sizes(t.lanes_f32()))
    for (int trial = 0; trial < 6; ++trial) {
      const RtOperand a_op = random_operand<E>(gen), b_op = random_operand<E>(gen), o_op = random_operand<E>(gen);
      const FusedActivationFunc act = kActivations[trial % 4];
      const quant::QuantRange range =
          quant::activation_range(act, o_op.scale, o_op.zero_point, storage.min, storage.max);
      const bool b_scalar = trial % 3 == 2 && n > 0;
      const bool in_place = trial % 3 == 1;
      const std::size_t off_a = static_cast<std::size_t>(trial) % 3, off_b = (off_a + 1) % 3;
      CAPTURE(n);
      CAPTURE(trial);
      CAPTURE(b_scalar);
      CAPTURE(in_place);
      const std::size_t nb = b_scalar ? 1 : n;
      Bytes<E> a(n, off_a), b(nb, off_b), out(n, (off_a + 2) % 3);
      std::vector<E> va(n), vb(nb);
      for (auto& v : va) v = static_cast<E>(value(gen));
      for (auto& v : vb) v = static_cast<E>(value(gen));
      for (std::size_t i = 0; i < n; ++i) a[i] = va[i];
      for (std::size_t i = 0; i < nb; ++i) b[i] = vb[i];
      E* dst = in_place ? a.data() : out.data();
      std::vector<std::int32_t> want(n);
      bool simd_ok = false;
      if (kind == Kind::kMul) {
        const ar::MulQuantParams p = ar::make_mul_params(a_op, b_op, o_op);
        nnhal::simd::Quant8MulParams v{};
        simd_ok = ar::to_simd(p, v);
        v.min = range.min;
        v.max = range.max;
        for (std::size_t i = 0; i < n; ++i) want[i] = ar::mul_quant_one(p, range, va[i], vb[b_scalar ? 0 : i]);
        if (simd_ok) nnhal::simd::quant8_mul(k, a.data(), b.data(), b_scalar, dst, n, v);
      } else {
        const ar::AddQuantParams p = ar::make_add_params(a_op, b_op, o_op, kind == Kind::kSub);
        nnhal::simd::Quant8AddParams v{};
        simd_ok = ar::to_simd(p, v);
        v.min = range.min;
        v.max = range.max;
        for (std::size_t i = 0; i < n; ++i) want[i] = ar::add_quant_one(p, range, va[i], vb[b_scalar ? 0 : i]);
        if (simd_ok) nnhal::simd::quant8_add(k, a.data(), b.data(), b_scalar, dst, n, v);
      }
      if (!simd_ok) continue;  // a left shift past 31: the kernel keeps the scalar loop
      std::size_t bad = 0, first = 0;
      for (std::size_t i = 0; i < n; ++i)
        if (static_cast<std::int32_t>(dst[i]) != want[i] && bad++ == 0) first = i;
      INFO("first mismatch at ", first, ": got ", n ? static_cast<int>(dst[first]) : 0, ", want ",
           n ? want[first] : 0);
      CHECK(bad == 0);
      CHECK(a.guards_intact());
      CHECK(b.guards_intact());
      CHECK(out.guards_intact());
      if (!in_place)
        for (std::size_t i = 0; i < n; ++i) REQUIRE(a[i] == va[i]);
      for (std::size_t i = 0; i < nb; ++i) REQUIRE(b[i] == vb[i]);
      compared += n;
    }
  CHECK(compared > 0);
}

/// The multipliers the edge cases combine: the output ones around the AVX-512 stages'
/// preconditions (right shift 0, 1, k + 1, 15..17, 22, 23 and past; multiplier 0, 2^30 and just
/// above, the int16 split's top edge 2^31 - 2^15, INT32_MAX; left shifts), the input ones exact
/// (low 11 bits zero, divisible by the right shift: equal or power-of-two scales, negated for
/// SUB) or not. 2^30 + 2^26 (odd 16-bit weights) with 2^30 + 2^15 puts srdhm's exact ties under
/// the int16 stage.
std::vector<quant::Multiplier> edge_outputs() {
  std::vector<quant::Multiplier> out;
  constexpr std::int32_t kMax = std::numeric_limits<std::int32_t>::max();
  for (const std::int32_t m : {std::int32_t{1} << 30, (std::int32_t{1} << 30) + 1, (std::int32_t{1} << 30) + (1 << 15),
                               std::int32_t{1518500250},
                               kMax - 32768, kMax - 32767, kMax})
    for (const int e : {0, 1, 2, 5, 9, 10, 12, 13, 15, 16, 17, 19, 22, 23, 31}) out.push_back({m, -e});
  for (const int left : {1, 4}) out.push_back({std::int32_t{1} << 30, left});
  out.push_back({0, 0});
  out.push_back({0, -7});
  return out;
}

std::vector<quant::Multiplier> edge_inputs() {
  return {{std::int32_t{1} << 30, 0},         {std::int32_t{1} << 30, -3},  {(std::int32_t{1} << 30) + 2048, 0},
          {(std::int32_t{1} << 30) + 1, -1},  {1518500250, -2},             {0, 0},
          {std::int32_t{1} << 30, -20},       {(std::int32_t{1} << 30) + (1 << 14), -3},
          {(std::int32_t{1} << 30) + (1 << 26), 0}};
}

/// Random data through target t's table with parameters p (AddQuantParams or MulQuantParams),
/// every size of `ns`, a full and a scalar second operand, against the scalar reference;
/// returns the number of elements compared.
template <class E, class P>
std::size_t check_params(const nnhal::simd::Quant8Binary& k, const P& p, std::mt19937& gen, bool full_range) {
  std::uniform_int_distribution<int> value(std::numeric_limits<E>::min(), std::numeric_limits<E>::max());
  const auto storage = quant::storage_range<E>();
  quant::QuantRange range = storage;
  if (!full_range) {
    const int lo = value(gen), hi = value(gen);
    range = {lo < hi ? lo : hi, lo < hi ? hi : lo};
  }
  std::size_t compared = 0;
  for (const std::size_t n : {std::size_t{1}, std::size_t{63}, std::size_t{64}, std::size_t{65}, std::size_t{200}})
    for (const bool b_scalar : {false, true}) {
      CAPTURE(n);
      CAPTURE(b_scalar);
      const std::size_t nb = b_scalar ? 1 : n;
      std::vector<E> a(n), b(nb), out(n + 1, E{42});
      for (auto& v : a) v = static_cast<E>(value(gen));
      for (auto& v : b) v = static_cast<E>(value(gen));
      // the extremes of both inputs first: the largest sums and products of either sign
      if (n >= 4) a[0] = std::numeric_limits<E>::min(), a[1] = std::numeric_limits<E>::max(),
                  a[2] = std::numeric_limits<E>::min(), a[3] = std::numeric_limits<E>::max();
      if (!b_scalar && n >= 4) b[0] = std::numeric_limits<E>::min(), b[1] = std::numeric_limits<E>::max(),
                               b[2] = std::numeric_limits<E>::max(), b[3] = std::numeric_limits<E>::min();
      std::vector<std::int32_t> want(n);
      bool ok = false;
      if constexpr (std::is_same_v<P, ar::MulQuantParams>) {
        nnhal::simd::Quant8MulParams v{};
        ok = ar::to_simd(p, v);
        v.min = range.min, v.max = range.max;
        for (std::size_t i = 0; i < n; ++i) want[i] = ar::mul_quant_one(p, range, a[i], b[b_scalar ? 0 : i]);
        if (ok) nnhal::simd::quant8_mul(k, a.data(), b.data(), b_scalar, out.data(), n, v);
      } else {
        nnhal::simd::Quant8AddParams v{};
        ok = ar::to_simd(p, v);
        v.min = range.min, v.max = range.max;
        for (std::size_t i = 0; i < n; ++i) want[i] = ar::add_quant_one(p, range, a[i], b[b_scalar ? 0 : i]);
        if (ok) nnhal::simd::quant8_add(k, a.data(), b.data(), b_scalar, out.data(), n, v);
      }
      if (!ok) continue;
      std::size_t bad = 0, first = 0;
      for (std::size_t i = 0; i < n; ++i)
        if (static_cast<std::int32_t>(out[i]) != want[i] && bad++ == 0) first = i;
      INFO("first mismatch at ", first, ": a ", static_cast<int>(a[first]), ", b ",
           static_cast<int>(b[b_scalar ? 0 : first]), ", got ", static_cast<int>(out[first]), ", want ", want[first]);
      CHECK(bad == 0);
      CHECK(out[n] == E{42});
      compared += n;
    }
  return compared;
}

/// check_params over the edge multipliers for element type E.
template <class E>
void check_edges(const st::Target& t, Kind kind, std::uint32_t seed) {
  const auto& k = nnhal::simd::quant8_binary(t.target);
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> zp(std::is_signed_v<E> ? -128 : 0, std::is_signed_v<E> ? 127 : 255);
  std::size_t compared = 0;
  int trial = 0;
  for (const quant::Multiplier out_m : edge_outputs()) {
    CAPTURE(out_m.value);
    CAPTURE(out_m.shift);
    const bool full_range = trial++ % 2 == 0;
    if (kind == Kind::kMul) {
      ar::MulQuantParams p{};
      p.input1_offset = -zp(gen), p.input2_offset = -zp(gen), p.output_offset = zp(gen);
      p.output = out_m;
      compared += check_params<E>(k, p, gen, full_range);
      continue;
    }
    for (const quant::Multiplier in_a : edge_inputs())
      for (const quant::Multiplier in_b : {edge_inputs()[0], in_a, edge_inputs()[static_cast<std::size_t>(trial) % 9]}) {
        CAPTURE(in_a.value);
        CAPTURE(in_a.shift);
        CAPTURE(in_b.value);
        CAPTURE(in_b.shift);
        ar::AddQuantParams p{};
        p.input1_offset = -zp(gen), p.input2_offset = -zp(gen), p.output_offset = zp(gen);
        p.input1 = in_a, p.input2 = in_b, p.output = out_m;
        if (kind == Kind::kSub) p.input2.value = -p.input2.value;
        compared += check_params<E>(k, p, gen, full_range);
      }
  }
  CHECK(compared > 0);
}

/// An output multiplier m in [2^30, 2^31 - 2^15) that puts one input's rounding exactly on a
/// boundary: with x = X * 2^k the int32 value the output stage rescales (X odd) and
/// S = 31 + e - k, the rescale is floor((X * m + Bk - Nk [X < 0]) / 2^S), Bk = (2^30 + 2^(30+e)) / 2^k
/// plus the offset's multiple of 2^S, Nk = 2^(31-k) (quant8_binary-inl.h); m makes that sum
/// 0 (`below` false) or -1 (true) modulo 2^S, so a rescale off by any amount of the right
/// sign changes the result. The check itself is against the reference; this only chooses m.
/// 0 when no m in range does it.
std::int32_t boundary_multiplier(std::int64_t x, int k, int e, bool below) {
  const int S = 31 + e - k;
  const std::uint64_t mask = (std::uint64_t{1} << S) - 1;
  const auto xu = static_cast<std::uint64_t>(x);
  std::uint64_t inv = xu;  // Newton's iteration for the inverse of an odd number modulo 2^64
  for (int i = 0; i < 6; ++i) inv *= 2 - xu * inv;
  const std::uint64_t sum = ((std::uint64_t{1} << 30) + (std::uint64_t{1} << (30 + e))) >> k;
  const std::uint64_t neg = x < 0 ? std::uint64_t{1} << (31 - k) : 0;
  const std::uint64_t want = (below ? mask : 0) - sum + neg;  // modulo 2^64, then 2^S
  const std::uint64_t m = (want * inv) & mask;
  return m >= (std::uint64_t{1} << 30) && m < (std::uint64_t{1} << 31) - 32768 ? static_cast<std::int32_t>(m) : 0;
}

/// out vs the reference over a, b for ADD (add) or MUL parameters.
template <class P>
std::size_t check_data(const nnhal::simd::Quant8Binary& k, const P& p, const std::vector<std::uint8_t>& a,
                       const std::vector<std::uint8_t>& b) {
  const quant::QuantRange range{0, 255};
  std::vector<std::uint8_t> out(a.size());
  std::size_t bad = 0;
  if constexpr (std::is_same_v<P, ar::MulQuantParams>) {
    nnhal::simd::Quant8MulParams v{};
    REQUIRE(ar::to_simd(p, v));
    v.min = 0, v.max = 255;
    nnhal::simd::quant8_mul(k, a.data(), b.data(), false, out.data(), a.size(), v);
    for (std::size_t i = 0; i < a.size(); ++i) bad += out[i] != ar::mul_quant_one(p, range, a[i], b[i]);
  } else {
    nnhal::simd::Quant8AddParams v{};
    REQUIRE(ar::to_simd(p, v));
    v.min = 0, v.max = 255;
    nnhal::simd::quant8_add(k, a.data(), b.data(), false, out.data(), a.size(), v);
    for (std::size_t i = 0; i < a.size(); ++i) bad += out[i] != ar::add_quant_one(p, range, a[i], b[i]);
  }
  CHECK(bad == 0);
  return a.size();
}

}  // namespace

TEST_CASE("simd::quant8_binary requant: bit for bit multiply_by_quantized_multiplier") {
  st::for_each_target([](const st::Target& t) {
    const auto& k = nnhal::simd::quant8_binary(t.target);
    std::mt19937 gen(7);
    std::uniform_int_distribution<std::int32_t> any(std::numeric_limits<std::int32_t>::min(),
                                                    std::numeric_limits<std::int32_t>::max());
    std::uniform_int_distribution<std::int32_t> multiplier(1 << 30, std::numeric_limits<std::int32_t>::max());
    for (const std::size_t n : st::sizes(t.lanes_f32()))
      for (int shift = -31; shift <= 31; shift += (shift < -3 || shift > 3) ? 5 : 1) {
        CAPTURE(n);
        CAPTURE(shift);
        std::vector<std::int32_t> x(n), got(n + 1, 77);
        for (auto& v : x) v = any(gen);
        if (n > 0) x[0] = std::numeric_limits<std::int32_t>::min();
        if (n > 1) x[1] = std::numeric_limits<std::int32_t>::max();
        if (n > 2) x[2] = 0;
        for (const std::int32_t m :
             {multiplier(gen), std::int32_t{1 << 30}, std::numeric_limits<std::int32_t>::max(), std::int32_t{0},
              -multiplier(gen), std::numeric_limits<std::int32_t>::min() + 1}) {
          CAPTURE(m);
          const std::int32_t left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
          k.requant(x.data(), got.data(), n, m, left, right);
          std::size_t bad = 0, first = 0;
          for (std::size_t i = 0; i < n; ++i)
            if (got[i] != quant::multiply_by_quantized_multiplier(x[i], m, shift) && bad++ == 0) first = i;
          INFO("first mismatch at ", first);
          CHECK(bad == 0);
          CHECK(got[n] == 77);
        }
      }
  });
}

TEST_CASE("simd::quant8_binary ADD: bit for bit the reference, uint8 and int8") {
  st::for_each_target([](const st::Target& t) {
    check_op<std::uint8_t>(t, Kind::kAdd, 101);
    check_op<std::int8_t>(t, Kind::kAdd, 102);
  });
}

TEST_CASE("simd::quant8_binary SUB: bit for bit the reference, uint8 and int8") {
  st::for_each_target([](const st::Target& t) {
    check_op<std::uint8_t>(t, Kind::kSub, 201);
    check_op<std::int8_t>(t, Kind::kSub, 202);
  });
}

TEST_CASE("simd::quant8_binary MUL: bit for bit the reference, uint8 and int8") {
  st::for_each_target([](const st::Target& t) {
    check_op<std::uint8_t>(t, Kind::kMul, 301);
    check_op<std::int8_t>(t, Kind::kMul, 302);
  });
}

TEST_CASE("simd::quant8_binary: edge multipliers, shifts and offsets, uint8 and int8") {
  // The parameters each AVX-512 stage takes or leaves to another (see quant8_binary-inl.h).
  st::for_each_target([](const st::Target& t) {
    for (const Kind kind : {Kind::kAdd, Kind::kSub, Kind::kMul}) {
      CAPTURE(static_cast<int>(kind));
      check_edges<std::uint8_t>(t, kind, 401 + static_cast<std::uint32_t>(kind));
      check_edges<std::int8_t>(t, kind, 501 + static_cast<std::uint32_t>(kind));
    }
  });
}

TEST_CASE("simd::quant8_binary: random output multipliers over exact input stages, uint8 and int8") {
  // Equal and power-of-two input scales (the int16 and 64-bit stages) with many random output
  // multipliers and shifts: enough sums of every residue that a rounding step off by a little
  // shows.
  st::for_each_target([](const st::Target& t) {
    const auto& k = nnhal::simd::quant8_binary(t.target);
    std::mt19937 gen(601);
    std::uniform_int_distribution<std::int32_t> multiplier(1 << 30, std::numeric_limits<std::int32_t>::max());
    std::uniform_int_distribution<int> right(1, 23), zp(0, 255), pick(0, 3);
    std::size_t compared = 0;
    for (int trial = 0; trial < 200; ++trial) {
      ar::AddQuantParams p{};
      p.input1_offset = -zp(gen), p.input2_offset = -zp(gen), p.output_offset = zp(gen);
      p.input1 = {std::int32_t{1} << 30, 0};
      const int form = pick(gen);
      p.input2 = form == 0 ? quant::Multiplier{std::int32_t{1} << 30, -pick(gen)}
                           : (form == 1 ? quant::Multiplier{(std::int32_t{1} << 30) + (1 << 26), 0} : p.input1);
      if (form == 3) p.input2.value = -p.input2.value;
      p.output = {multiplier(gen), -right(gen)};
      CAPTURE(p.output.value);
      CAPTURE(p.output.shift);
      CAPTURE(p.input2.value);
      CAPTURE(p.input2.shift);
      compared += check_params<std::uint8_t>(k, p, gen, true);
      p.input1_offset -= 128, p.input2_offset -= 128, p.output_offset -= 128;
      compared += check_params<std::int8_t>(k, p, gen, trial % 2 == 0);
    }
    CHECK(compared > 0);
  });
}

TEST_CASE("simd::quant8_binary: output multipliers that put a sum on a rounding boundary") {
  // ADD with both input multipliers 2^30 + 2^26 (each input stage is (v + offset) * 17 * 2^15,
  // the int16 stage's X = 17 t, t = a + b - zero points, k = 15, e >= 16) and MUL (the 64-bit
  // stage's X = a - zero point times 1, k = 0): for odd X of either sign, the multipliers that
  // land X's rounding exactly on a boundary or just below it.
  st::for_each_target([](const st::Target& t) {
    const auto& k = nnhal::simd::quant8_binary(t.target);
    std::size_t compared = 0, add_cases = 0, mul_cases = 0;
    std::vector<std::uint8_t> a(511), b(511);
    for (std::size_t i = 0; i < a.size(); ++i) {
      a[i] = static_cast<std::uint8_t>(i < 255 ? i : 255);
      b[i] = static_cast<std::uint8_t>(i - a[i]);  // a + b = i
    }
    for (const bool negative : {false, true})
      for (int e = 16; e <= 22; ++e)
        for (int sum = 1; sum < 60; sum += 2)
          for (const bool below : {false, true}) {
            const int ts = negative ? -sum : sum;
            const std::int32_t m = boundary_multiplier(17 * ts, 15, e, below);
            if (m == 0) continue;
            CAPTURE(ts);
            CAPTURE(e);
            CAPTURE(m);
            ar::AddQuantParams p{};
            p.input1_offset = p.input2_offset = negative ? -255 : 0;  // t = a + b or a + b - 510
            p.output_offset = 128;
            p.input1 = p.input2 = {(std::int32_t{1} << 30) + (1 << 26), 0};
            p.output = {m, -e};
            compared += check_data(k, p, a, b);
            ++add_cases;
          }
    std::vector<std::uint8_t> ma(256), mb(256, 1);
    for (std::size_t i = 0; i < ma.size(); ++i) ma[i] = static_cast<std::uint8_t>(i);
    for (const bool negative : {false, true})
      for (int e = 1; e <= 22; e += 3)
        for (int x = 1; x < 40; x += 2)
          for (const bool below : {false, true}) {
            const int xs = negative ? -x : x;
            const std::int32_t m = boundary_multiplier(xs, 0, e, below);
            if (m == 0) continue;
            CAPTURE(xs);
            CAPTURE(e);
            CAPTURE(m);
            ar::MulQuantParams p{};
            p.input1_offset = negative ? -255 : 0;  // X = a or a - 255, times b = 1
            p.input2_offset = 0;
            p.output_offset = 3;
            p.output = {m, -e};
            compared += check_data(k, p, ma, mb);
            ++mul_cases;
          }
    CHECK(add_cases > 20);
    CHECK(mul_cases > 20);
    CHECK(compared > 0);
  });
}

TEST_CASE("simd::quant8_binary: input multipliers that put an input's rounding on a boundary") {
  // ADD with a = its zero point (s_a = 0) and b's input stage rounding (right shift r): for
  // v = b - zero point, b's multiplier m_b makes v * m_b + 2^10 + 2^(10+r) - 2^11 [v < 0]
  // (the one-rounding sum of that stage divided by 2^20) 0 or -1 modulo 2^(11+r), and the
  // output multiplier puts the resulting sum on the output's boundary of the same side, so
  // either rounding off by one shows in the output.
  st::for_each_target([](const st::Target& t) {
    const auto& k = nnhal::simd::quant8_binary(t.target);
    std::size_t cases = 0;
    for (const int r : {1, 2, 3, 6, 12})
      for (int v = -63; v < 64; v += 2)
        for (const bool below : {false, true}) {
          const std::uint64_t mod = std::uint64_t{1} << (11 + r);
          const auto vu = static_cast<std::uint64_t>(std::int64_t{v});
          std::uint64_t inv = vu;
          for (int i = 0; i < 6; ++i) inv *= 2 - vu * inv;
          const std::uint64_t want =
              (below ? mod - 1 : 0) - (std::uint64_t{1} << 10) - (std::uint64_t{1} << (10 + r)) + (v < 0 ? 2048 : 0);
          const std::uint64_t res = (want * inv) & (mod - 1);
          const auto m_b = static_cast<std::int32_t>((std::uint64_t{1} << 30) + ((res - (std::uint64_t{1} << 30)) & (mod - 1)));
          const std::int32_t s_b = quant::multiply_by_quantized_multiplier(v * (1 << 20), m_b, -r);
          if (s_b % 2 == 0) continue;
          for (const int e : {1, 4, 9}) {
            const std::int32_t m_out = boundary_multiplier(s_b, 0, e, below);
            if (m_out == 0) continue;
            CAPTURE(r);
            CAPTURE(v);
            CAPTURE(m_b);
            CAPTURE(e);
            CAPTURE(m_out);
            ar::AddQuantParams p{};
            p.input1_offset = 0, p.input2_offset = -128, p.output_offset = 100;
            p.input1 = {std::int32_t{1} << 30, 0};
            p.input2 = {m_b, -r};
            p.output = {m_out, -e};
            const std::vector<std::uint8_t> a(70, 0), b(70, static_cast<std::uint8_t>(128 + v));
            check_data(k, p, a, b);
            ++cases;
          }
        }
    CHECK(cases > 20);
  });
}

TEST_CASE("simd::quant8_binary: every input pair of one quantization, uint8 and int8") {
  // Exhaustive over (a, b) for a few fixed quantizations (the benchmark's among them).
  struct Q {
    float sa, sb, so;
    int za, zb, zo;
  };
  for (const Q q : {Q{0.05f, 0.05f, 0.1f, 128, 128, 128}, Q{0.5f, 0.003f, 0.02f, 0, 255, 7},
                    Q{1.0f / 256, 3.0f, 0.25f, 200, 3, 250}}) {
    st::for_each_target([&](const st::Target& t) {
      const auto& k = nnhal::simd::quant8_binary(t.target);
      RtOperand a_op, b_op, o_op;
      a_op.scale = q.sa, b_op.scale = q.sb, o_op.scale = q.so;
      a_op.zero_point = q.za, b_op.zero_point = q.zb, o_op.zero_point = q.zo;
      std::vector<std::uint8_t> a(65536), b(65536);
      for (std::size_t i = 0; i < a.size(); ++i) {
        a[i] = static_cast<std::uint8_t>(i & 255);
        b[i] = static_cast<std::uint8_t>(i >> 8);
      }
      for (const Kind kind : {Kind::kAdd, Kind::kSub, Kind::kMul}) {
        CAPTURE(static_cast<int>(kind));
        if (kind == Kind::kMul)
          check_data(k, ar::make_mul_params(a_op, b_op, o_op), a, b);
        else
          check_data(k, ar::make_add_params(a_op, b_op, o_op, kind == Kind::kSub), a, b);
      }
    });
  }
}

}  // namespace test_simd_quant8_binary
