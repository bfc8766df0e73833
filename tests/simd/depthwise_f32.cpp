// nnhal::simd::depthwise_f32 (include/nnhal/simd/depthwise_f32.hpp) on every compiled target
// this CPU runs, against the FLOAT32 reference kernel
// nnhal::kernels::depthwise_conv_2d::reference_float and a double-precision sum, on random NHWC
// geometries (generic path, 3x3 stride 1 / 2 rows, channel tails, borders), unaligned buffers
// with guards.
//
// The kernel starts from the bias and fuses multiply-adds, the reference sums products from 0
// in tap order and then adds the bias, so the check is a bound: both must be within
// (taps + 2) * 2^-24 * (sum |x * w| + |bias|) * 1.01 of the exact value (any summation order
// of taps + 1 float terms is, to first order; the clamp is 1-Lipschitz).

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "nnhal/kernels/depthwise_conv_2d.hpp"
#include "nnhal/simd/depthwise_f32.hpp"
#include "simd/depthwise_common.hpp"
#include "simd/simd_tester.hpp"

namespace {

namespace st = nnhal::test::simd;
namespace dw = nnhal::kernels::depthwise_conv_2d;

void check(const st::Target& t, const dw::Conv& cv, std::uint32_t seed) {
  const std::size_t C = cv.in.c, in_n = std::size_t{cv.in.n} * cv.in.h * cv.in.w * C;
  const std::size_t out_n = std::size_t{cv.out.n} * cv.out.h * cv.out.w * C;
  const std::size_t f_n = std::size_t(cv.g.filter_h) * cv.g.filter_w * C;
  st::Buffer in(in_n, seed % 3), filter(f_n, (seed + 1) % 3), bias(C, (seed + 2) % 3), out(out_n, seed % 2);
  in.assign(st::uniform(in_n, -1.0f, 1.0f, seed));
  filter.assign(st::uniform(f_n, -1.0f, 1.0f, seed + 1));
  bias.assign(st::uniform(C, -1.0f, 1.0f, seed + 2));
  const nnhal::FloatRange r = nnhal::float_activation_range(cv.activation);
  const auto& g = cv.g;
  nnhal::simd::DepthwiseF32Args args{in.data(), filter.data(), bias.data(), out.data(), cv.out.n, cv.in.h, cv.in.w, C,
                                     cv.out.h, cv.out.w, static_cast<std::size_t>(g.filter_h),
                                     static_cast<std::size_t>(g.filter_w), g.stride_h, g.stride_w, g.dilation_h,
                                     g.dilation_w, g.pad_h.head, g.pad_w.head, r.min, r.max, 0, SIZE_MAX};
  const auto& kernel = nnhal::simd::depthwise_f32_table(t.target);
  kernel.run(args);
  // The same rows computed as two pieces (as two threads would) give the same bits.
  std::vector<float> pieces(out_n);
  args.out = pieces.data();
  const std::size_t split = cv.out.h / 2;
  args.row_begin = 0, args.row_end = split;
  kernel.run(args);
  args.row_begin = split, args.row_end = SIZE_MAX;
  kernel.run(args);
  std::size_t differ = 0;
  for (std::size_t i = 0; i < out_n; ++i) differ += std::memcmp(&pieces[i], &out[i], sizeof(float)) != 0;
  CHECK(differ == 0);
  std::vector<float> ref(out_n);
  dw::reference_float(in.data(), filter.data(), bias.data(), ref.data(), cv);
  CHECK(out.guards_intact());
  constexpr double u = 1.0 / 16777216.0;
  std::size_t bad = 0;
  for (std::size_t b = 0; b < cv.out.n; ++b)
    for (std::size_t y = 0; y < cv.out.h; ++y)
      for (std::size_t x = 0; x < cv.out.w; ++x)
        for (std::size_t c = 0; c < C; ++c) {
          double sum = bias[c], abs_sum = std::fabs(sum);
          std::size_t taps = 0;
          for (std::int64_t ky = 0; ky < g.filter_h; ++ky)
            for (std::int64_t kx = 0; kx < g.filter_w; ++kx) {
              const std::int64_t iy = static_cast<std::int64_t>(y) * g.stride_h - g.pad_h.head + ky * g.dilation_h;
              const std::int64_t ix = static_cast<std::int64_t>(x) * g.stride_w - g.pad_w.head + kx * g.dilation_w;
              if (iy < 0 || ix < 0 || iy >= cv.in.h || ix >= cv.in.w) continue;
              const double p = static_cast<double>(in[cv.in.at(b, static_cast<std::size_t>(iy), static_cast<std::size_t>(ix), c)]) *
                               filter[static_cast<std::size_t>(ky * g.filter_w + kx) * C + c];
              sum += p, abs_sum += std::fabs(p), ++taps;
            }
          const double want = sum < r.min ? r.min : (sum > r.max ? r.max : sum);
          const double bound = static_cast<double>(taps + 2) * u * abs_sum * 1.01 + 1e-30;
          const std::size_t o = cv.out.at(b, y, x, c);
          if (!(std::fabs(out[o] - want) <= bound) || !(std::fabs(ref[o] - want) <= bound)) ++bad;
        }
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("simd::depthwise_f32 is within the summation-order bound of the exact result (random geometries)") {
  st::for_each_target([](const st::Target& t) {
    std::mt19937 g(5);
    for (std::uint32_t i = 0; i < 120; ++i) {
      const dw::Conv cv = nnhal::test::depthwise::random_conv(g);
      CAPTURE(i);
      INFO("h=" << cv.in.h << " w=" << cv.in.w << " c=" << cv.in.c << " f=" << cv.g.filter_h << "x" << cv.g.filter_w
                << " s=" << cv.g.stride_h << "," << cv.g.stride_w << " d=" << cv.g.dilation_h << "," << cv.g.dilation_w);
      check(t, cv, 100 + i);
    }
  });
}

TEST_CASE("simd::depthwise_f32 is within the summation-order bound on wide 3x3 rows (groups of outputs, last group moved back)") {
  st::for_each_target([](const st::Target& t) {
    std::mt19937 g(29);
    for (std::uint32_t i = 0; i < 40; ++i) {
      const dw::Conv cv = nnhal::test::depthwise::random_wide_conv(g);
      CAPTURE(i);
      INFO("h=" << cv.in.h << " w=" << cv.in.w << " c=" << cv.in.c << " s=" << cv.g.stride_h);
      check(t, cv, 500 + i);
    }
  });
}


TEST_CASE("simd::depthwise_f32 is within the summation-order bound on 3x3 rows of 8-output groups and their remainders") {
  // Interior widths around multiples of 8 (the AVX2 groups of 8 outputs, a rest of 5..7 as one
  // more group moved back, a smaller rest in groups of 4 or single outputs), 1..20 channels
  // (none, one or two full vectors, with and without a tail), and channel counts around the
  // limits of the groups of 8 (AVX2: 120 with stride 2, 204 with stride 1; AVX-512: 321 and
  // 546; the groups of row3x3 past them).
  st::for_each_target([](const st::Target& t) {
    std::mt19937 g(43);
    for (std::uint32_t i = 0; i < 56; ++i) {
      const dw::Conv cv = i >= 48      ? (i % 2 == 0 ? nnhal::test::depthwise::random_wide_conv(g, 8, 22, 319, 323)
                                                     : nnhal::test::depthwise::random_wide_conv(g, 8, 22, 544, 548))
                          : i % 8 == 6 ? nnhal::test::depthwise::random_wide_conv(g, 8, 22, 118, 122)
                          : i % 8 == 7 ? nnhal::test::depthwise::random_wide_conv(g, 8, 22, 202, 206)
                                       : nnhal::test::depthwise::random_wide_conv(g, 8, 40, 1, 20);
      CAPTURE(i);
      INFO("h=" << cv.in.h << " w=" << cv.in.w << " c=" << cv.in.c << " s=" << cv.g.stride_h);
      check(t, cv, 900 + i);
    }
  });
}

TEST_CASE("simd::depthwise_f32 keeps a NaN sum NaN under every activation, as the reference's clamp does") {
  // Regression: the vector paths clamped with max then min, which on x86 return their second
  // operand for a NaN, so a NaN sum came out as the activation's lower bound (-inf with no
  // activation). Inputs with a few NaNs, on the generic path, the 3x3 rows (groups of 8 and of
  // 4, borders) and channel tails; every output must be NaN exactly where the reference's is.
  st::for_each_target([](const st::Target& t) {
    std::mt19937 g(71);
    std::size_t nan_outputs = 0;
    for (std::uint32_t i = 0; i < 48; ++i) {
      dw::Conv cv = i % 3 == 0   ? nnhal::test::depthwise::random_conv(g)
                    : i % 3 == 1 ? nnhal::test::depthwise::random_wide_conv(g, 8, 40, 1, 20)
                                 : nnhal::test::depthwise::random_wide_conv(g, 8, 22, 202, 210);
      cv.activation = static_cast<std::int32_t>(i % 4);
      CAPTURE(i);
      INFO("h=" << cv.in.h << " w=" << cv.in.w << " c=" << cv.in.c << " s=" << cv.g.stride_h << " act=" << cv.activation);
      const std::size_t C = cv.in.c, in_n = std::size_t{cv.in.n} * cv.in.h * cv.in.w * C;
      const std::size_t out_n = std::size_t{cv.out.n} * cv.out.h * cv.out.w * C;
      const std::size_t f_n = std::size_t(cv.g.filter_h) * cv.g.filter_w * C;
      std::vector<float> in = st::uniform(in_n, -1.0f, 1.0f, 300 + i), filter = st::uniform(f_n, -1.0f, 1.0f, 400 + i),
                         bias = st::uniform(C, -1.0f, 1.0f, 450 + i);
      for (std::size_t k = i % 37; k < in_n; k += 97) in[k] = std::nanf("");
      std::vector<float> out(out_n), ref(out_n);
      const nnhal::FloatRange r = nnhal::float_activation_range(cv.activation);
      const auto& geo = cv.g;
      const nnhal::simd::DepthwiseF32Args args{in.data(), filter.data(), bias.data(), out.data(), cv.out.n, cv.in.h,
                                               cv.in.w, C, cv.out.h, cv.out.w, static_cast<std::size_t>(geo.filter_h),
                                               static_cast<std::size_t>(geo.filter_w), geo.stride_h, geo.stride_w,
                                               geo.dilation_h, geo.dilation_w, geo.pad_h.head, geo.pad_w.head, r.min,
                                               r.max, 0, SIZE_MAX};
      nnhal::simd::depthwise_f32_table(t.target).run(args);
      dw::reference_float(in.data(), filter.data(), bias.data(), ref.data(), cv);
      std::size_t differ = 0;
      for (std::size_t o = 0; o < out_n; ++o) {
        differ += std::isnan(out[o]) != std::isnan(ref[o]);
        nan_outputs += std::isnan(ref[o]) ? 1 : 0;
      }
      CHECK(differ == 0);
    }
    CHECK(nan_outputs > 0);
  });
}
