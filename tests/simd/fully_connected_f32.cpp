// nnhal::simd::fully_connected_f32 (include/nnhal/simd/fully_connected_f32.hpp) against a
// double-precision dot product and against the FLOAT32 reference kernel
// nnhal::kernels::fully_connected::reference_f32.
//
// The SIMD kernel sums in another order than the reference (vector lanes, fused multiply-adds,
// a tree over the lanes), so the check is a bound, not equality. For a sum of n float terms
// computed in any order, |computed - exact| <= gamma(n) * sum |term| with gamma(n) ~ n * u,
// u = 2^-24 (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., section 4.2).
// Here the terms are input_size products (each rounded once at most) and the bias, so
//   bound = (input_size + 2) * u * (sum_k |in[b,k] * w[u,k]| + |bias[u]|) * 1.01
// (the factor covers the second-order part of gamma; the clamp is 1-Lipschitz, so the bound
// still holds after it). Both the SIMD kernel and reference_f32 must land within it of the
// exact (double) value; typical errors are far smaller. The SIMD kernel is checked for every
// compiled target this CPU can run (simd::compiled_targets()).

#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "nnhal/kernels/common/activation.hpp"
#include "nnhal/kernels/fully_connected.hpp"
#include "nnhal/simd/fully_connected_f32.hpp"
#include "simd/simd_tester.hpp"

namespace {

namespace st = nnhal::test::simd;
using nnhal::FloatRange;

struct Shape {
  std::size_t batch, input_size, units;
};

/// Exact-ish result (double sums of exact double products) and the error bound per output.
struct ExactResult {
  std::vector<double> value, bound;
};

ExactResult exact(const std::vector<float>& in, const std::vector<float>& w, const float* bias,
                  Shape s, FloatRange r) {
  constexpr double u = 1.0 / 16777216.0;  // 2^-24, unit roundoff of float
  ExactResult e;
  for (std::size_t b = 0; b < s.batch; ++b)
    for (std::size_t n = 0; n < s.units; ++n) {
      const double bias_v = bias != nullptr ? static_cast<double>(bias[n]) : 0.0;
      double sum = 0.0, abs_sum = std::fabs(bias_v);
      for (std::size_t k = 0; k < s.input_size; ++k) {
        const double p = static_cast<double>(in[b * s.input_size + k]) *
                         static_cast<double>(w[n * s.input_size + k]);
        sum += p;
        abs_sum += std::fabs(p);
      }
      sum += bias_v;
      const double lo = r.min, hi = r.max;
      e.value.push_back(sum < lo ? lo : (sum > hi ? hi : sum));
      e.bound.push_back(static_cast<double>(s.input_size + 2) * u * abs_sum * 1.01 +
                        static_cast<double>(std::numeric_limits<float>::denorm_min()));
    }
  return e;
}

/// Runs target t's SIMD kernel and reference_f32 on one shape with every buffer at the given
/// offsets, and checks both against the bound, plus guards and unchanged inputs.
void check_shape(const st::Target& t, Shape s, st::Offsets off, FloatRange r, bool with_bias,
                 std::uint32_t seed) {
  CAPTURE(s.batch);
  CAPTURE(s.input_size);
  CAPTURE(s.units);
  CAPTURE(with_bias);
  CAPTURE(r.min);
  CAPTURE(r.max);
  const std::vector<float> vin = st::uniform(s.batch * s.input_size, -1.0f, 1.0f, seed);
  const std::vector<float> vw = st::uniform(s.units * s.input_size, -1.0f, 1.0f, seed + 1);
  const std::vector<float> vbias = st::uniform(s.units, -1.0f, 1.0f, seed + 2);
  st::Buffer in(vin.size(), off.in), w(vw.size(), (off.in + 1) % 4), bias(vbias.size(), off.in);
  st::Buffer out(s.batch * s.units, off.out);
  in.assign(vin);
  w.assign(vw);
  bias.assign(vbias);
  const float* bias_p = with_bias ? bias.data() : nullptr;

  nnhal::simd::fully_connected_f32_table(t.target).run(in.data(), w.data(), bias_p, out.data(), s.batch, s.input_size, s.units,
                        r.min, r.max);
  const ExactResult e = exact(vin, vw, with_bias ? vbias.data() : nullptr, s, r);
  {
    INFO("SIMD kernel");
    st::check_within(out.span(), e.value, e.bound);
  }
  CHECK(out.guards_intact());
  CHECK(in.guards_intact());
  CHECK(w.guards_intact());
  st::check_same(in.span(), vin);
  st::check_same(w.span(), vw);
  st::check_same(bias.span(), vbias);

  std::vector<float> ref(s.batch * s.units);
  nnhal::kernels::fully_connected::reference_f32(vin.data(), vw.data(),
                                             with_bias ? vbias.data() : nullptr, ref.data(),
                                             s.batch, s.input_size, s.units, r.min, r.max);
  {
    INFO("reference_f32 (the bound must hold for the reference too)");
    st::check_within(ref, e.value, e.bound);
  }
}

/// (batch, units) pairs covering full tiles and every tail of the row and unit blocking.
constexpr std::pair<std::size_t, std::size_t> kBatchUnits[] = {
    {1, 1}, {1, 9}, {1, 17}, {2, 3}, {3, 7}, {4, 6}, {5, 13}, {8, 8}, {9, 17}};

}  // namespace

TEST_CASE("simd::fully_connected_f32 is within the summation-order bound (sizes, tails, offsets)") {
  st::for_each_target([](const st::Target& t) {
    std::uint32_t seed = 7;
    std::int32_t act = 0;
    for (const auto& bu : kBatchUnits) {
      st::for_each_case(st::sizes(t.lanes_f32()), [&](std::size_t input_size, st::Offsets off) {
        const FloatRange r = nnhal::float_activation_range(act++ % 4);
        check_shape(t, {bu.first, input_size, bu.second}, off, r, true, seed += 3);
      });
    }
  });
}

TEST_CASE("simd::fully_connected_f32 without bias, many tiles, and the benchmark shapes' tails") {
  st::for_each_target([](const st::Target& t) {
    const FloatRange none{};
    check_shape(t, {3, 37, 5}, {1, 3}, none, false, 11);
    check_shape(t, {67, 259, 101}, {0, 0}, none, true, 12);  // 4-row tiles + 3 rows, unit tails
    check_shape(t, {64, 1024, 37}, {3, 1}, nnhal::float_activation_range(1), true, 13);
    check_shape(t, {1, 1024, 1000}, {0, 0}, none, true, 14);  // the matrix-vector benchmark shape
  });
}

TEST_CASE("simd::fully_connected_f32 handles empty dimensions and propagates NaN") {
  st::for_each_target([](const st::Target& t) {
    const FloatRange none{};
    // input_size 0: every output is clamp(bias).
    check_shape(t, {2, 0, 3}, {0, 0}, nnhal::float_activation_range(2), true, 21);
    // batch 0 or no units: nothing is written.
    check_shape(t, {0, 8, 3}, {1, 1}, none, true, 22);
    check_shape(t, {2, 8, 0}, {1, 1}, none, true, 23);

    // A NaN in one input row makes that row NaN (even through the clamp), and only that row.
    const std::size_t batch = 3, k = 2 * t.lanes_f32() + 3, units = 5;
    std::vector<float> in = st::uniform(batch * k, -1.0f, 1.0f, 31);
    const std::vector<float> w = st::uniform(units * k, -1.0f, 1.0f, 32);
    in[1 * k + k - 1] = std::numeric_limits<float>::quiet_NaN();  // row 1, in the tail
    std::vector<float> out(batch * units);
    nnhal::simd::fully_connected_f32_table(t.target).run(in.data(), w.data(), nullptr, out.data(), batch, k, units, 0.0f, 6.0f);
    for (std::size_t b = 0; b < batch; ++b)
      for (std::size_t u = 0; u < units; ++u) {
        CAPTURE(b);
        CAPTURE(u);
        CHECK(std::isnan(out[b * units + u]) == (b == 1));
      }
  });
}

TEST_CASE("simd::fully_connected_f32 reads nothing past its buffers (exact-size heap blocks)") {
  // The guarded buffers above catch stray writes; reads past the end land in their guards. Here
  // every array is its own exact-size heap block, so an AddressSanitizer build reports any
  // over-read (e.g. a full-vector load of the last partial vector of a row).
  st::for_each_target([](const st::Target& t) {
    std::uint32_t seed = 41;
    for (const std::size_t k : st::sizes(t.lanes_f32()))
      for (const auto& bu : kBatchUnits) {
        CAPTURE(k);
        CAPTURE(bu.first);
        CAPTURE(bu.second);
        const std::vector<float> in = st::uniform(bu.first * k, -1.0f, 1.0f, ++seed);
        const std::vector<float> w = st::uniform(bu.second * k, -1.0f, 1.0f, ++seed);
        const std::vector<float> bias = st::uniform(bu.second, -1.0f, 1.0f, ++seed);
        std::vector<float> out(bu.first * bu.second);
        nnhal::simd::fully_connected_f32_table(t.target).run(in.data(), w.data(), bias.data(), out.data(), bu.first, k, bu.second,
                              -1.0f, 1.0f);
        const ExactResult e = exact(in, w, bias.data(), {bu.first, k, bu.second}, {-1.0f, 1.0f});
        st::check_within(out, e.value, e.bound);
      }
  });
}

TEST_CASE("simd::fully_connected_f32 runs the chosen target's kernel") {
  // The public entry point runs the chosen target's kernel: same bits as that table's entry.
  const std::size_t batch = 5, k = 67, units = 9;
  const std::vector<float> in = st::uniform(batch * k, -1.0f, 1.0f, 51);
  const std::vector<float> w = st::uniform(units * k, -1.0f, 1.0f, 52);
  const std::vector<float> bias = st::uniform(units, -1.0f, 1.0f, 53);
  std::vector<float> got(batch * units), want(batch * units);
  nnhal::simd::fully_connected_f32(in.data(), w.data(), bias.data(), got.data(), batch, k, units,
                                   -1.0f, 1.0f);
  nnhal::simd::fully_connected_f32_table(nnhal::simd::chosen_target()).run(in.data(), w.data(), bias.data(), want.data(), batch,
                                              k, units, -1.0f, 1.0f);
  st::check_same(got, want);
}
