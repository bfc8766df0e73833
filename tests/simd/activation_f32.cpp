// simd::activation_f32 (include/nnhal/simd/activation_f32.hpp) on every compiled target this CPU
// runs: the clamps, HARD_SWISH, PRELU and MAXIMUM / MINIMUM bit for bit against the scalar
// reference (values of every magnitude with zeros of both signs, infinities, NaN, denormals),
// LOGISTIC, TANH and ELU against double precision with a measured bound over a dense range that
// reaches past exp's overflow and underflow, every size around the vector width, misaligned,
// in place and with guards.
#include <doctest/doctest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "nnhal/kernels/common/activation.hpp"
#include "nnhal/simd/activation_f32.hpp"
#include "simd/simd_tester.hpp"

namespace st = nnhal::test::simd;

namespace {

/// One unit in the last place of float value v (the spacing above |v|; FLT_TRUE_MIN below the
/// normal range).
double ulp(double v) {
  const float f = static_cast<float>(std::fabs(v));
  return static_cast<double>(std::nextafter(f, FLT_MAX) - f);
}

/// Checks |got[i] - want[i]| <= bound[i], where equal values (infinities included) and NaN
/// against NaN also pass; reports the first failing element with its input.
inline void check_close(std::span<const float> x, std::span<const float> got, std::span<const double> want,
                        std::span<const double> bound) {
  REQUIRE(got.size() == want.size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double g = got[i], w = want[i];
    const bool ok = (std::isnan(g) && std::isnan(w)) || g == w || std::fabs(g - w) <= bound[i];
    if (!ok && bad++ == 0) {
      INFO("first failure at ", i, ": x = ", st::describe(x[i]), ", got ", st::describe(got[i]), ", want ", w,
           ", bound ", bound[i]);
      CHECK(ok);
    }
  }
  CHECK(bad == 0);
}

/// Runs `kernel(in, out, n)` over every size and misalignment, out of place and in place, and
/// checks guards, an unchanged input and check(values, out).
template <class Kernel, class Check>
void for_each_run(std::size_t lanes, std::uint32_t seed, Kernel&& kernel, Check&& check) {
  st::for_each_case(st::sizes(lanes), [&](std::size_t n, st::Offsets o) {
    const std::vector<float> values = st::special_mix(n, seed + static_cast<std::uint32_t>(n));
    st::Buffer in(n, o.in), out(n, o.out);
    in.assign(values);
    kernel(in.data(), out.data(), n);
    check(values, std::vector<float>(out.span().begin(), out.span().end()));
    CHECK(in.guards_intact());
    CHECK(out.guards_intact());
    for (std::size_t i = 0; i < n; ++i) CHECK(st::same_float(in[i], values[i]));
    kernel(in.data(), in.data(), n);  // in place: the same bits
    for (std::size_t i = 0; i < n; ++i) CHECK(st::same_float(in[i], out[i]));
    CHECK(in.guards_intact());
  });
}

/// Checks out == f(values) bit for bit.
template <class F>
auto exact(F f) {
  return [f](const std::vector<float>& values, const std::vector<float>& out) {
    std::vector<float> want(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) want[i] = f(values[i]);
    st::check_same(out, want);
  };
}

/// A dense sweep over [-120, 120] (past expf's overflow at 88.7 and its underflow), finer near 0,
/// and the special values.
std::vector<float> sweep() {
  std::vector<float> x;
  for (float v = -120.0f; v <= 120.0f; v += 0.0037f) x.push_back(v);
  for (float v = -1.0f; v <= 1.0f; v += 3e-5f) x.push_back(v);
  for (float v : {0.0f, -0.0f, 1e-30f, -1e-30f, 1e-7f, -1e-7f, 0.625f, -0.625f, 0.62499994f, 88.72283f, 88.72284f,
                  -87.33f, -103.9f, -104.1f, 200.0f, -200.0f, FLT_MAX, -FLT_MAX, FLT_MIN, -FLT_MIN})
    x.push_back(v);
  return x;
}

/// Checks the transcendental kernel `run` against `exact` within `bound(x, exact)` over sweep(),
/// then NaN -> NaN and the infinities -> `at_inf` (at +inf, at -inf).
template <class Run, class Exact, class Bound>
void check_accuracy(Run run, Exact exact_fn, Bound bound_fn, float at_pos_inf, float at_neg_inf) {
  const std::vector<float> x = sweep();
  std::vector<float> got(x.size());
  run(x.data(), got.data(), x.size());
  std::vector<double> want(x.size()), bound(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    want[i] = exact_fn(static_cast<double>(x[i]));
    bound[i] = bound_fn(static_cast<double>(x[i]), want[i]);
  }
  check_close(x, got, want, bound);
  constexpr float kInf = std::numeric_limits<float>::infinity();
  const float special[] = {std::numeric_limits<float>::quiet_NaN(), kInf, -kInf};
  float out[3];
  run(special, out, 3);
  CHECK(std::isnan(out[0]));
  CHECK(out[1] == at_pos_inf);
  CHECK(out[2] == at_neg_inf);
}

}  // namespace

TEST_CASE("simd::activation_f32 clamp: bit for bit the reference clamp (RELU, RELU1, RELU6, none)") {
  st::for_each_target([](const st::Target& t) {
    const auto& k = nnhal::simd::activation_f32(t.target);
    for (std::int32_t act = 0; act <= 3; ++act) {
      CAPTURE(act);
      const nnhal::FloatRange r = nnhal::float_activation_range(act);
      for_each_run(
          t.lanes_f32(), 100, [&](const float* in, float* out, std::size_t n) { k.clamp(in, out, n, r.min, r.max); },
          exact([r](float x) { return r.apply(x); }));
    }
  });
}

TEST_CASE("simd::activation_f32 hard_swish: bit for bit x * min(6, max(0, x + 3)) / 6") {
  st::for_each_target([](const st::Target& t) {
    const auto& k = nnhal::simd::activation_f32(t.target);
    for_each_run(t.lanes_f32(), 200, k.hard_swish,
                 exact([](float x) { return x * std::min(6.0f, std::max(0.0f, x + 3.0f)) / 6.0f; }));
  });
}

TEST_CASE("simd::activation_f32 prelu: bit for bit x >= 0 ? x : x * alpha, alpha same shape, scalar or repeated") {
  st::for_each_target([](const st::Target& t) {
    const auto& k = nnhal::simd::activation_f32(t.target);
    const std::size_t N = t.lanes_f32();
    for (const std::size_t period : {std::size_t{1}, std::size_t{3}, N, N + 1, 2 * N + 3, std::size_t{0}}) {
      for (const std::size_t reps : {std::size_t{1}, std::size_t{2}, std::size_t{5}}) {
        const std::size_t p = period == 0 ? 1000 : period;  // 0 stands for a long same-shape run
        const std::size_t n = p * reps;
        for (const std::size_t off : st::kOffsets) {
          CAPTURE(p);
          CAPTURE(reps);
          CAPTURE(off);
          const std::vector<float> x = st::special_mix(n, static_cast<std::uint32_t>(7 * n + p));
          const std::vector<float> a = st::special_mix(p, static_cast<std::uint32_t>(3 * p + 1));
          st::Buffer in(n, off), alpha(p, (off + 1) % 4), out(n, (off + 3) % 4);
          in.assign(x);
          alpha.assign(a);
          k.prelu(in.data(), alpha.data(), p, out.data(), n);
          std::vector<float> want(n);
          for (std::size_t i = 0; i < n; ++i) want[i] = x[i] >= 0.0f ? x[i] : x[i] * a[i % p];
          st::check_same(out.span(), want);
          CHECK(in.guards_intact());
          CHECK(alpha.guards_intact());
          CHECK(out.guards_intact());
          k.prelu(in.data(), alpha.data(), p, in.data(), n);  // in place
          st::check_same(in.span(), want);
        }
      }
    }
  });
}

TEST_CASE("simd::activation_f32 min_max: bit for bit std::min / std::max, same shape or a scalar side") {
  st::for_each_target([](const st::Target& t) {
    const auto& k = nnhal::simd::activation_f32(t.target);
    for (const bool min : {false, true})
      for (const bool a_scalar : {false, true})
        for (const bool b_scalar : {false, true}) {
          CAPTURE(min);
          CAPTURE(a_scalar);
          CAPTURE(b_scalar);
          st::for_each_case(st::sizes(t.lanes_f32()), [&](std::size_t n, st::Offsets o) {
            if (n == 0) return;
            const std::vector<float> a = st::special_mix(a_scalar ? 1 : n, static_cast<std::uint32_t>(n));
            std::vector<float> b = st::special_mix(b_scalar ? 1 : n, static_cast<std::uint32_t>(n + 99));
            // Equal values of either sign and zeros of both signs decide which operand is kept.
            for (std::size_t i = 0; i < b.size(); i += 5) b[i] = a[a_scalar ? 0 : i % a.size()];
            if (b.size() > 1) b[1] = -0.0f;
            st::Buffer ba(a.size(), o.in), bb(b.size(), (o.in + 1) % 4), out(n, o.out);
            ba.assign(a);
            bb.assign(b);
            k.min_max(min, ba.data(), a_scalar, bb.data(), b_scalar, out.data(), n);
            std::vector<float> want(n);
            for (std::size_t i = 0; i < n; ++i) {
              const float x = a[a_scalar ? 0 : i], y = b[b_scalar ? 0 : i];
              want[i] = min ? std::min(x, y) : std::max(x, y);
            }
            st::check_same(out.span(), want);
            CHECK(ba.guards_intact());
            CHECK(bb.guards_intact());
            CHECK(out.guards_intact());
            if (!a_scalar) {  // in place over a
              k.min_max(min, ba.data(), a_scalar, bb.data(), b_scalar, ba.data(), n);
              st::check_same(ba.span(), want);
            }
          });
        }
  });
}

TEST_CASE("simd::activation_f32 logistic: within 3 ulp of 1 / (1 + exp(-x)) in double") {
  // Measured: 2.02 ulp at most on every target (x near -15.5); results below FLT_MIN within one
  // subnormal step.
  st::for_each_target([](const st::Target& t) {
    const auto& k = nnhal::simd::activation_f32(t.target);
    check_accuracy(
        k.logistic, [](double x) { return 1.0 / (1.0 + std::exp(-x)); },
        [](double, double w) { return w < FLT_MIN ? FLT_TRUE_MIN : 3.0 * ulp(w); }, 1.0f, 0.0f);
    for_each_run(
        t.lanes_f32(), 300, k.logistic,
        [](const std::vector<float>& values, const std::vector<float>& out) {
          std::vector<double> want(values.size()), bound(values.size());
          for (std::size_t i = 0; i < values.size(); ++i) {
            want[i] = 1.0 / (1.0 + std::exp(-static_cast<double>(values[i])));
            bound[i] = want[i] < FLT_MIN ? FLT_TRUE_MIN : 3.0 * ulp(want[i]);
          }
          check_close(values, out, want, bound);
        });
  });
}

TEST_CASE("simd::activation_f32 tanh: within 2 ulp of tanh in double") {
  // Measured: 1.49 ulp at most on every target (|x| near 0.92).
  st::for_each_target([](const st::Target& t) {
    const auto& k = nnhal::simd::activation_f32(t.target);
    auto bound = [](double, double w) { return std::fabs(w) < FLT_MIN ? FLT_TRUE_MIN : 2.0 * ulp(w); };
    check_accuracy(k.tanh, [](double x) { return std::tanh(x); }, bound, 1.0f, -1.0f);
    for_each_run(t.lanes_f32(), 400, k.tanh, [&](const std::vector<float>& values, const std::vector<float>& out) {
      std::vector<double> want(values.size()), b(values.size());
      for (std::size_t i = 0; i < values.size(); ++i) {
        want[i] = std::tanh(static_cast<double>(values[i]));
        b[i] = bound(values[i], want[i]);
      }
      check_close(values, out, want, b);
    });
  });
}

TEST_CASE("simd::activation_f32 elu: the reference formula with exp within 2 ulp") {
  // max(0, x) + min(0, alpha * (exp(x) - 1)) with exp(x) - 1 formed in float, as the scalar
  // kernel does: the error is |alpha| times exp's 2 ulp plus the subtraction's rounding, plus one
  // rounding of the result (measured: 1.5e-7 absolute at most for alpha 1.3).
  st::for_each_target([](const st::Target& t) {
    const auto& k = nnhal::simd::activation_f32(t.target);
    for (const float alpha : {1.0f, 1.3f, 0.2f, -0.7f, 0.0f}) {
      CAPTURE(alpha);
      const double a = alpha;
      auto want_fn = [a](double x) { return std::max(0.0, x) + std::min(0.0, a * std::expm1(x)); };
      auto bound_fn = [a](double x, double w) {
        const double e = std::exp(x);
        if (std::isinf(e) || x > 88.7) return std::numeric_limits<double>::infinity();  // alpha * inf
        return std::fabs(a) * (2.0 * ulp(e) + ulp(e - 1.0)) + 2.0 * ulp(w);
      };
      auto run = [&](const float* in, float* out, std::size_t n) { k.elu(in, out, n, alpha); };
      const std::vector<float> x = sweep();
      std::vector<float> got(x.size());
      run(x.data(), got.data(), x.size());
      std::vector<double> want(x.size()), bound(x.size());
      for (std::size_t i = 0; i < x.size(); ++i) {
        want[i] = want_fn(x[i]);
        bound[i] = bound_fn(x[i], want[i]);
      }
      check_close(x, got, want, bound);
      for_each_run(t.lanes_f32(), 500, run, [&](const std::vector<float>& values, const std::vector<float>& out) {
        // NaN, infinities and values past exp's overflow as the scalar formula gives them.
        for (std::size_t i = 0; i < values.size(); ++i) {
          const float v = values[i];
          if (std::isnan(v) || std::isinf(v) || v > 88.0f || v < -88.0f) {
            const float ref = std::max(0.0f, v) + std::min(0.0f, alpha * (std::exp(v) - 1.0f));
            CAPTURE(v);
            CHECK(st::same_float(out[i], ref));
          } else {
            const double w = want_fn(v);
            CAPTURE(v);
            CHECK(std::fabs(out[i] - w) <= bound_fn(v, w));
          }
        }
      });
    }
  });
}
