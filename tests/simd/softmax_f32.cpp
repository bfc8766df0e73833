// simd::softmax_f32 (include/nnhal/simd/softmax_f32.hpp) on every compiled target this CPU runs:
// the vector exp against exp in double over its whole domain (x <= 0), and softmax rows of
// every size around the vector width, misaligned, in place and with guards, against softmax
// computed in double.
#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "nnhal/simd/softmax_f32.hpp"
#include "simd/simd_tester.hpp"

namespace st = nnhal::test::simd;

namespace {

/// One unit in the last place of float value v (the spacing above |v|; FLT_TRUE_MIN below the
/// normal range).
double ulp(double v) {
  const float f = static_cast<float>(std::fabs(v));
  return static_cast<double>(std::nextafter(f, FLT_MAX) - f);
}

/// Softmax of each row in double.
std::vector<double> exact_softmax(const std::vector<float>& in, std::size_t rows, std::size_t n, float beta) {
  std::vector<double> out(in.size());
  for (std::size_t r = 0; r < rows; ++r) {
    double max = -DBL_MAX, sum = 0.0;
    for (std::size_t i = 0; i < n; ++i) max = std::fmax(max, in[r * n + i]);
    for (std::size_t i = 0; i < n; ++i) sum += std::exp(double{beta} * (in[r * n + i] - max));
    for (std::size_t i = 0; i < n; ++i) out[r * n + i] = std::exp(double{beta} * (in[r * n + i] - max)) / sum;
  }
  return out;
}

}  // namespace

TEST_CASE("simd::softmax_f32 exp: within 2 ulp of exp on x <= 0, 0 below the normal range") {
  st::for_each_target([](const st::Target& t) {
    const auto& k = nnhal::simd::softmax_f32(t.target);
    std::vector<float> x;
    for (float v = 0.0f; v > -88.0f; v -= 0.0037f) x.push_back(v);  // a fine sweep of the domain
    for (float v : {-0.0f, -1e-30f, -1e-7f, -0.34657359f, -0.34657360f, -87.33f, -87.34f, -100.0f, -FLT_MAX})
      x.push_back(v);
    std::vector<float> got(x.size());
    k.exp_nonpositive(x.data(), got.data(), x.size());
    std::vector<double> want(x.size()), bound(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
      want[i] = std::exp(static_cast<double>(x[i]));
      // 2 ulp of the result; below 2^-126 the kernel flushes to 0 (an error under FLT_MIN).
      bound[i] = want[i] < FLT_MIN ? FLT_MIN : 2.0 * ulp(want[i]);
    }
    st::check_within(got, want, bound);
  });
}

TEST_CASE("simd::softmax_f32 rows: within a few ulp of softmax in double, nothing outside the rows touched") {
  st::for_each_target([](const st::Target& t) {
    const auto& k = nnhal::simd::softmax_f32(t.target);
    std::uint32_t seed = 11;
    for (const std::size_t n : st::sizes(t.lanes_f32()))
      for (const std::size_t rows : {std::size_t{1}, std::size_t{3}})
        for (const float beta : {1.0f, 0.25f, 7.5f})
          for (const std::size_t off : st::kOffsets) {
            CAPTURE(n);
            CAPTURE(rows);
            CAPTURE(beta);
            CAPTURE(off);
            const std::vector<float> values = st::uniform(rows * n, -10.0f, 10.0f, ++seed);
            st::Buffer in(values.size(), off), out(values.size(), (off + 1) % 4);
            in.assign(values);
            k.rows(in.data(), out.data(), rows, n, beta);
            const std::vector<double> want = exact_softmax(values, rows, n, beta);
            std::vector<double> bound(want.size());
            // exp within 2 ulp, the sum and the scaling add a few roundings: 6 ulp of the result,
            // and at least 1e-7 absolute for the tiny probabilities (the corpus allows 1e-5
            // absolute plus 5 ulp).
            for (std::size_t i = 0; i < want.size(); ++i) bound[i] = std::fmax(6.0 * ulp(want[i]), 1e-7);
            st::check_within(out.span(), want, bound);
            CHECK(in.guards_intact());
            CHECK(out.guards_intact());
            CHECK(std::vector<float>(in.span().begin(), in.span().end()) == values);  // input unchanged
            // In place gives the same bits.
            in.assign(values);
            k.rows(in.data(), in.data(), rows, n, beta);
            for (std::size_t i = 0; i < values.size(); ++i) CHECK(st::same_float(in[i], out[i]));
          }
  });
}
