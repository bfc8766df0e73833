// nnhal::simd::conv_f32 (include/nnhal/simd/conv_f32.hpp): the packed FLOAT32 NHWC
// convolution against a double-precision convolution and against the plain kernel
// nnhal::kernels::conv::plain_float, for every compiled target this CPU can run.
//
// The SIMD kernel sums in another order than the plain kernel (bias first, fused multiply-adds),
// so the check is a bound: for K = filter_h * filter_w * in_c products and the bias, any order
// lies within (K + 2) * u * (sum |x * w| + |bias|) * 1.01 of the exact value (u = 2^-24; see
// tests/simd/fully_connected_f32.cpp for the argument). Shapes are random: image sizes, channel
// counts across every panel width and tile-row tail, filter sizes, strides, dilations, paddings
// (including taps wholly in the padding), batches; the output sits between guard floats.

#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "nnhal/kernels/common/conv.hpp"
#include "nnhal/simd/conv_f32.hpp"
#include "simd/simd_tester.hpp"

namespace {

namespace st = nnhal::test::simd;
namespace kc = nnhal::kernels::conv;
using nnhal::FloatRange;

struct Shape {
  std::size_t batch, in_h, in_w, in_c, out_c, fh, fw;
  std::int64_t sh, sw, dh, dw, pt, pl, pb, pr;
};

std::size_t out_size(std::size_t in, std::size_t f, std::int64_t s, std::int64_t d, std::int64_t head, std::int64_t tail) {
  const std::int64_t span = static_cast<std::int64_t>(in) + head + tail - (static_cast<std::int64_t>(f) - 1) * d - 1;
  return span < 0 ? 0 : static_cast<std::size_t>(span / s + 1);
}

/// Runs target t's kernel on one shape and checks it, and the plain kernel, against the bound.
void check_shape(const st::Target& t, const Shape& s, FloatRange r, std::uint32_t seed) {
  CAPTURE(s.batch);
  CAPTURE(s.in_h);
  CAPTURE(s.in_w);
  CAPTURE(s.in_c);
  CAPTURE(s.out_c);
  CAPTURE(s.fh);
  CAPTURE(s.fw);
  CAPTURE(s.sh);
  CAPTURE(s.sw);
  CAPTURE(s.dh);
  CAPTURE(s.dw);
  CAPTURE(s.pt);
  CAPTURE(s.pl);
  CAPTURE(s.pb);
  CAPTURE(s.pr);
  const std::size_t oh = out_size(s.in_h, s.fh, s.sh, s.dh, s.pt, s.pb);
  const std::size_t ow = out_size(s.in_w, s.fw, s.sw, s.dw, s.pl, s.pr);
  REQUIRE(oh > 0);
  REQUIRE(ow > 0);
  const std::size_t K = s.fh * s.fw * s.in_c;
  const std::vector<float> x = st::uniform(s.batch * s.in_h * s.in_w * s.in_c, -1.0f, 1.0f, seed);
  const std::vector<float> w = st::uniform(s.out_c * K, -1.0f, 1.0f, seed + 1);
  const std::vector<float> bias = st::uniform(s.out_c, -1.0f, 1.0f, seed + 2);

  const nnhal::simd::ConvF32& table = nnhal::simd::conv_f32_table(t.target);
  const std::size_t nr = table.panel_width(s.out_c);
  REQUIRE(nr > 0);
  std::vector<float> packed(nnhal::simd::conv_f32_packed_floats(s.out_c, K, nr, s.in_c), 99.0f);
  nnhal::simd::conv_f32_pack(w.data(), bias.data(), s.out_c, K, nr, s.in_c, packed.data());

  const std::size_t n_out = s.batch * oh * ow * s.out_c;
  st::Buffer out(n_out, seed % 3);
  nnhal::simd::ConvF32Args a;
  a.in = x.data(), a.out = out.data(), a.packed = packed.data();
  a.batch = s.batch, a.in_h = s.in_h, a.in_w = s.in_w, a.in_c = s.in_c;
  a.out_h = oh, a.out_w = ow, a.out_c = s.out_c, a.filter_h = s.fh, a.filter_w = s.fw;
  a.stride_h = s.sh, a.stride_w = s.sw, a.dilation_h = s.dh, a.dilation_w = s.dw, a.pad_top = s.pt, a.pad_left = s.pl;
  a.panel = nr, a.act_min = r.min, a.act_max = r.max;
  table.run(a);
  CHECK(out.guards_intact());

  // Exact values and bounds.
  constexpr double u = 1.0 / 16777216.0;
  std::vector<double> want(n_out), bound(n_out);
  for (std::size_t b = 0; b < s.batch; ++b)
    for (std::size_t oy = 0; oy < oh; ++oy)
      for (std::size_t ox = 0; ox < ow; ++ox)
        for (std::size_t oc = 0; oc < s.out_c; ++oc) {
          double sum = bias[oc], abs_sum = std::fabs(static_cast<double>(bias[oc]));
          for (std::size_t fy = 0; fy < s.fh; ++fy)
            for (std::size_t fx = 0; fx < s.fw; ++fx) {
              const std::int64_t iy = static_cast<std::int64_t>(oy) * s.sh - s.pt + static_cast<std::int64_t>(fy) * s.dh;
              const std::int64_t ix = static_cast<std::int64_t>(ox) * s.sw - s.pl + static_cast<std::int64_t>(fx) * s.dw;
              if (iy < 0 || ix < 0 || iy >= static_cast<std::int64_t>(s.in_h) || ix >= static_cast<std::int64_t>(s.in_w))
                continue;
              for (std::size_t c = 0; c < s.in_c; ++c) {
                const double p = static_cast<double>(x[((b * s.in_h + static_cast<std::size_t>(iy)) * s.in_w +
                                                        static_cast<std::size_t>(ix)) * s.in_c + c]) *
                                 static_cast<double>(w[oc * K + (fy * s.fw + fx) * s.in_c + c]);
                sum += p;
                abs_sum += std::fabs(p);
              }
            }
          const std::size_t i = ((b * oh + oy) * ow + ox) * s.out_c + oc;
          want[i] = sum < r.min ? r.min : (sum > r.max ? r.max : sum);
          bound[i] = static_cast<double>(K + 2) * u * abs_sum * 1.01 +
                     static_cast<double>(std::numeric_limits<float>::denorm_min());
        }
  {
    INFO("SIMD kernel");
    st::check_within(out.span(), want, bound);
  }

  // The plain kernel through the same geometry.
  kc::Spec spec;
  spec.in = nnhal::kernels::window::Image::of(nnhal::Dims{static_cast<std::uint32_t>(s.batch), static_cast<std::uint32_t>(s.in_h),
                                                          static_cast<std::uint32_t>(s.in_w), static_cast<std::uint32_t>(s.in_c)},
                                              false);
  spec.out = nnhal::kernels::window::Image::of(nnhal::Dims{static_cast<std::uint32_t>(s.batch), static_cast<std::uint32_t>(oh),
                                                           static_cast<std::uint32_t>(ow), static_cast<std::uint32_t>(s.out_c)},
                                               false);
  spec.g.pad_h = {static_cast<std::int32_t>(s.pt), static_cast<std::int32_t>(s.pb)};
  spec.g.pad_w = {static_cast<std::int32_t>(s.pl), static_cast<std::int32_t>(s.pr)};
  spec.g.stride_h = static_cast<std::int32_t>(s.sh), spec.g.stride_w = static_cast<std::int32_t>(s.sw);
  spec.g.dilation_h = static_cast<std::int32_t>(s.dh), spec.g.dilation_w = static_cast<std::int32_t>(s.dw);
  spec.g.filter_h = static_cast<std::int32_t>(s.fh), spec.g.filter_w = static_cast<std::int32_t>(s.fw);
  spec.g.out_h = static_cast<std::uint32_t>(oh), spec.g.out_w = static_cast<std::uint32_t>(ow);
  spec.out_c = static_cast<std::uint32_t>(s.out_c), spec.groups = 1;
  spec.group_in = static_cast<std::uint32_t>(s.in_c), spec.group_out = spec.out_c;
  std::vector<float> ref(n_out);
  kc::plain_float(spec, x.data(), w.data(), bias.data(), ref.data(), r);
  {
    INFO("plain kernel (the bound must hold for it too)");
    st::check_within(ref, want, bound);
  }
}

}  // namespace

TEST_CASE("simd::conv_f32 is within the summation-order bound on random geometries") {
  st::for_each_target([](const st::Target& t) {
    const std::size_t N = t.lanes_f32();
    std::mt19937 gen(1234);
    auto pick = [&](std::size_t lo, std::size_t hi) { return std::uniform_int_distribution<std::size_t>(lo, hi)(gen); };
    // Output channel counts around every panel width (1, 2 and 4 vectors) and tail.
    const std::size_t channels[] = {1, 2, N - 1 + (N == 1), N, N + 1, 2 * N, 2 * N + 1, 3 * N + 2, 4 * N, 4 * N + 3, 6 * N, 9 * N + 1, 10 * N + 3};
    std::uint32_t seed = 3;
    for (int i = 0; i < 60; ++i) {
      Shape s{};
      s.batch = pick(1, 2);
      s.fh = pick(1, 4), s.fw = pick(1, 4);
      s.sh = static_cast<std::int64_t>(pick(1, 3)), s.sw = static_cast<std::int64_t>(pick(1, 3));
      s.dh = static_cast<std::int64_t>(pick(1, 3)), s.dw = static_cast<std::int64_t>(pick(1, 3));
      const std::int64_t eff_h = (static_cast<std::int64_t>(s.fh) - 1) * s.dh + 1;
      const std::int64_t eff_w = (static_cast<std::int64_t>(s.fw) - 1) * s.dw + 1;
      s.pt = static_cast<std::int64_t>(pick(0, static_cast<std::size_t>(eff_h - 1)));
      s.pb = static_cast<std::int64_t>(pick(0, static_cast<std::size_t>(eff_h - 1)));
      s.pl = static_cast<std::int64_t>(pick(0, static_cast<std::size_t>(eff_w - 1)));
      s.pr = static_cast<std::int64_t>(pick(0, static_cast<std::size_t>(eff_w - 1)));
      s.in_h = pick(1, 9), s.in_w = pick(1, 13);
      // The padded input must hold the dilated filter.
      while (static_cast<std::int64_t>(s.in_h) + s.pt + s.pb < eff_h) ++s.in_h;
      while (static_cast<std::int64_t>(s.in_w) + s.pl + s.pr < eff_w) ++s.in_w;
      s.in_c = pick(1, 2 * N + 3);
      s.out_c = channels[static_cast<std::size_t>(i) % std::size(channels)];
      const FloatRange r = nnhal::float_activation_range(i % 4);
      check_shape(t, s, r, seed += 5);
    }
  });
}

TEST_CASE("simd::conv_f32 on the benchmark-like shapes (3x3 SAME, 1x1) and tile-row tails") {
  st::for_each_target([](const st::Target& t) {
    const FloatRange none{};
    check_shape(t, {1, 9, 11, 16, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, none, 101);   // 3x3 SAME
    check_shape(t, {1, 7, 13, 64, 128, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0}, none, 102);  // 1x1
    check_shape(t, {2, 5, 5, 3, 7, 5, 5, 2, 2, 1, 1, 2, 2, 2, 2}, nnhal::float_activation_range(3), 103);
    for (std::size_t w = 1; w <= 14; ++w)  // pixel counts 1..14: every tail of 6- and 12-row tiles
      check_shape(t, {1, 1, w, 5, 33, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0}, none, 110 + static_cast<std::uint32_t>(w));
  });
}

TEST_CASE("simd::conv_f32 propagates NaN through the clamp, to the outputs whose window reads it") {
  st::for_each_target([](const st::Target& t) {
    const nnhal::simd::ConvF32& table = nnhal::simd::conv_f32_table(t.target);
    // 1 x 5 x 5 x 3 input, 3x3 filter, VALID: output 3 x 3 x 20; input pixel (0, 0) is NaN, read
    // only by output (0, 0).
    const std::size_t oc = 20, K = 27;
    std::vector<float> x = st::uniform(75, -1.0f, 1.0f, 5);
    x[1] = std::numeric_limits<float>::quiet_NaN();
    const std::vector<float> w = st::uniform(oc * K, -1.0f, 1.0f, 6);
    const std::vector<float> bias = st::uniform(oc, -1.0f, 1.0f, 7);
    const std::size_t nr = table.panel_width(oc);
    std::vector<float> packed(nnhal::simd::conv_f32_packed_floats(oc, K, nr, 3));
    nnhal::simd::conv_f32_pack(w.data(), bias.data(), oc, K, nr, 3, packed.data());
    for (std::int32_t act = 0; act < 4; ++act) {
      CAPTURE(act);
      const FloatRange r = nnhal::float_activation_range(act);
      std::vector<float> out(9 * oc);
      nnhal::simd::ConvF32Args a;
      a.in = x.data(), a.out = out.data(), a.packed = packed.data();
      a.batch = 1, a.in_h = 5, a.in_w = 5, a.in_c = 3, a.out_h = 3, a.out_w = 3, a.out_c = oc;
      a.filter_h = 3, a.filter_w = 3, a.panel = nr, a.act_min = r.min, a.act_max = r.max;
      table.run(a);
      for (std::size_t i = 0; i < out.size(); ++i) {
        CAPTURE(i);
        CHECK(std::isnan(out[i]) == (i < oc));
      }
    }
  });
}

TEST_CASE("simd::conv_f32's pointwise path (1x1, stride 1, no padding): blocks, tails, activations, pieces") {
  st::for_each_target([](const st::Target& t) {
    const std::size_t N = t.lanes_f32();
    // Pixel counts past several blocks (a block holds up to 32 tiles of 6 or 12 rows) with a
    // tail, input channels from one to past a block of one tile, every panel width and tail.
    const std::size_t in_cs[] = {1, 3, N + 1, 64, 700};
    const std::size_t out_cs[] = {1, N + 1, 2 * N, 4 * N + 3, 128};
    std::uint32_t seed = 400;
    for (std::size_t i = 0; i < std::size(in_cs); ++i)
      for (std::size_t o = 0; o < std::size(out_cs); ++o) {
        const bool wide = in_cs[i] >= 64;  // 7 x 7 pixels, else 29 x 17 = 493
        const std::size_t h = wide ? 7 : 29, w = wide ? 7 : 17;
        const FloatRange r = nnhal::float_activation_range(static_cast<std::int32_t>((i + o) % 4));
        check_shape(t, {1 + (o % 2), h, w, in_cs[i], out_cs[o], 1, 1, 1, 1, 1, 1, 0, 0, 0, 0}, r, seed += 3);
      }

    // Pieces of the run (pixel and panel ranges, as threads split it) write exactly what the
    // whole run writes.
    const std::size_t in_c = 24, out_c = 4 * N + 3, h = 23, w = 19, pixels = h * w;
    const std::vector<float> x = st::uniform(2 * pixels * in_c, -1.0f, 1.0f, 501);
    const std::vector<float> wt = st::uniform(out_c * in_c, -1.0f, 1.0f, 502);
    const std::vector<float> bias = st::uniform(out_c, -1.0f, 1.0f, 503);
    const nnhal::simd::ConvF32& table = nnhal::simd::conv_f32_table(t.target);
    const std::size_t nr = table.panel_width(out_c), panels = (out_c + nr - 1) / nr;
    std::vector<float> packed(nnhal::simd::conv_f32_packed_floats(out_c, in_c, nr, in_c));
    nnhal::simd::conv_f32_pack(wt.data(), bias.data(), out_c, in_c, nr, in_c, packed.data());
    std::vector<float> whole(2 * pixels * out_c, 7.0f), pieces(whole.size(), 7.0f);
    nnhal::simd::ConvF32Args a;
    a.in = x.data(), a.packed = packed.data(), a.batch = 2, a.in_h = h, a.in_w = w, a.in_c = in_c;
    a.out_h = h, a.out_w = w, a.out_c = out_c, a.filter_h = 1, a.filter_w = 1, a.panel = nr;
    a.act_min = -1.0f, a.act_max = 1.0f;
    a.out = whole.data();
    table.run(a);
    a.out = pieces.data();
    const std::size_t cuts[] = {0, 5, 200, 201, pixels};
    for (std::size_t c = 0; c + 1 < std::size(cuts); ++c)
      for (std::size_t j = 0; j < panels; ++j) {
        a.pixel_begin = cuts[c], a.pixel_end = cuts[c + 1], a.panel_begin = j, a.panel_end = j + 1;
        table.run(a);
      }
    CHECK(pieces == whole);
  });
}
