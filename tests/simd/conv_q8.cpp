// nnhal::simd::conv_q8 (include/nnhal/simd/conv_q8.hpp): the 8-bit NHWC convolution on
// widened operands must equal the plain integer kernel nnhal::kernels::conv::plain_quant bit for
// bit (same int32 sums, same rescaling), for every compiled target this CPU can run that has
// the kernel (panel_width > 0), on random geometries, zero points, per-tensor and per-channel
// multipliers (including multipliers > 1) and activation ranges, in the int16 pair form and, on
// targets with AVX-512 VNNI enabled by the compiler flags, the quad form (byte inputs, weights
// minus their zero point in int8: per-channel and centered filters); the output sits between
// guard bytes.

#include <doctest/doctest.h>

#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include "nnhal/kernels/common/conv.hpp"
#include "nnhal/simd/conv_q8.hpp"
#include "simd/simd_tester.hpp"

// This file's own scope: test files are compiled in groups (NNHAL_UNITY_TESTS).
namespace test_simd_conv_q8 {

namespace {

namespace st = nnhal::test::simd;
namespace kc = nnhal::kernels::conv;
namespace quant = nnhal::quant;

struct Shape {
  std::uint32_t batch, in_h, in_w, in_c, out_c, fh, fw;
  std::int32_t sh, sw, dh, dw, pt, pl, pb, pr;
};

/// The plain kernel's spec of an NHWC shape.
kc::Spec spec_of(const Shape& s) {
  kc::Spec spec;
  spec.g.pad_h = {s.pt, s.pb}, spec.g.pad_w = {s.pl, s.pr};
  spec.g.stride_h = s.sh, spec.g.stride_w = s.sw, spec.g.dilation_h = s.dh, spec.g.dilation_w = s.dw;
  spec.g.filter_h = static_cast<std::int32_t>(s.fh), spec.g.filter_w = static_cast<std::int32_t>(s.fw);
  spec.g.out_h = static_cast<std::uint32_t>((s.in_h + s.pt + s.pb - (s.fh - 1) * s.dh - 1) / s.sh + 1);
  spec.g.out_w = static_cast<std::uint32_t>((s.in_w + s.pl + s.pr - (s.fw - 1) * s.dw - 1) / s.sw + 1);
  spec.in = nnhal::kernels::window::Image::of(nnhal::Dims{s.batch, s.in_h, s.in_w, s.in_c}, false);
  spec.out = nnhal::kernels::window::Image::of(nnhal::Dims{s.batch, spec.g.out_h, spec.g.out_w, s.out_c}, false);
  spec.out_c = s.out_c, spec.groups = 1, spec.group_in = s.in_c, spec.group_out = s.out_c;
  return spec;
}

/// X: input/output element; W: filter element (X, or int8 per-channel).
template <class X, class W>
void check_shape(const st::Target& t, const Shape& s, bool per_channel, std::uint32_t seed, bool extreme = false,
                 bool centered = false, bool below_half = false, std::size_t piece = 0) {
  CAPTURE(s.in_h);
  CAPTURE(s.in_w);
  CAPTURE(s.in_c);
  CAPTURE(s.out_c);
  CAPTURE(s.fh);
  CAPTURE(s.fw);
  CAPTURE(per_channel);
  const nnhal::simd::ConvQ8& table = nnhal::simd::conv_q8_table(t.target);
  const std::size_t nr = table.panel_width(s.out_c);
  if (nr == 0) return;  // no kernel on this target: the plain kernel runs instead
  std::mt19937 gen(seed);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen); };
  constexpr int lo = std::is_signed_v<X> ? -128 : 0, hi = std::is_signed_v<X> ? 127 : 255;
  const kc::Spec spec = spec_of(s);
  const std::size_t taps = std::size_t{s.fh} * s.fw;
  std::vector<X> x(std::size_t{s.batch} * s.in_h * s.in_w * s.in_c);
  std::vector<W> w(s.out_c * taps * s.in_c);
  std::vector<std::int32_t> bias(s.out_c);
  for (auto& v : x) v = static_cast<X>(pick(lo, hi));
  for (auto& v : w) v = static_cast<W>(per_channel ? pick(-127, 127) : pick(lo, hi));
  for (auto& v : bias) v = extreme ? static_cast<std::int32_t>(gen()) : pick(-20000, 20000);
  kc::QuantParams p;
  p.input_offset = -pick(lo, hi);
  p.filter_offset = per_channel ? 0 : (centered ? -(lo + hi + 1) / 2 : -pick(lo, hi));
  p.output_offset = pick(lo, hi);
  p.per_channel = per_channel;
  std::vector<quant::Multiplier> mult(per_channel ? s.out_c : 1);
  // Real multipliers in [2^-15, 2^3): right and left shifts; exact powers of two (ties) too.
  // below_half: in [2^-15, 2^-1), right shifts only (every channel takes the AVX2 rescale).
  for (auto& m : mult)
    m = quant::quantize_multiplier(
        std::ldexp(pick(0, 3) == 0 ? 0.5 : 0.5 + pick(0, 1000) / 2001.0, pick(-14, below_half ? -1 : 3)));
  p.output = mult[0];
  const quant::QuantRange range{pick(lo, lo + 40), pick(hi - 40, hi)};

  std::vector<X> want(std::size_t{s.batch} * spec.g.out_h * spec.g.out_w * s.out_c);
  kc::plain_quant(spec, x.data(), w.data(), bias.data(), want.data(), p, mult.data(), range);

  const std::size_t in_c2 = (s.in_c + 1) / 2 * 2;
  std::vector<std::int16_t> in16((std::size_t{s.batch} * s.in_h * s.in_w + 1) * in_c2, 77);
  nnhal::simd::conv_q8_widen_input(x.data(), -p.input_offset, std::size_t{s.batch} * s.in_h * s.in_w, s.in_c, in16.data());
  std::vector<std::int32_t> packed(nnhal::simd::conv_q8_packed_slots(s.out_c, taps, s.in_c, nr), 99);
  nnhal::simd::conv_q8_pack(w.data(), -p.filter_offset, bias.data(), mult.data(), per_channel ? 1 : 0, s.out_c, taps,
                            s.in_c, nr, packed.data());
  // Output bytes between guards.
  constexpr std::size_t kGuard = 64;
  std::vector<std::uint8_t> out(want.size() + 2 * kGuard, 0xA5);
  nnhal::simd::ConvQ8Args a;
  a.in = in16.data(), a.out = out.data() + kGuard, a.packed = packed.data();
  a.batch = s.batch, a.in_h = s.in_h, a.in_w = s.in_w, a.in_c2 = in_c2;
  a.out_h = spec.g.out_h, a.out_w = spec.g.out_w, a.out_c = s.out_c, a.filter_h = s.fh, a.filter_w = s.fw;
  a.stride_h = s.sh, a.stride_w = s.sw, a.dilation_h = s.dh, a.dilation_w = s.dw, a.pad_top = s.pt, a.pad_left = s.pl;
  a.panel = nr, a.signed_output = std::is_signed_v<X>;
  a.output_offset = p.output_offset, a.act_min = range.min, a.act_max = range.max;
  // The whole output in one call, or (piece > 0) in pixel ranges of `piece` pixels, as threads
  // run it.
  const std::size_t pixels = std::size_t{spec.g.out_h} * spec.g.out_w;
  const auto run = [&] {
    if (piece == 0) return table.run(a);
    for (std::size_t begin = 0; begin < pixels; begin += piece) {
      nnhal::simd::ConvQ8Args part = a;
      part.pixel_begin = begin, part.pixel_end = begin + piece;
      table.run(part);
    }
  };
  run();
  auto check_out = [&] {
    std::size_t bad = 0;
    for (std::size_t i = 0; i < want.size(); ++i)
      if (static_cast<X>(out[kGuard + i]) != want[i]) ++bad;
    CHECK(bad == 0);
    bool guards = true;
    for (std::size_t i = 0; i < kGuard; ++i) guards = guards && out[i] == 0xA5 && out[out.size() - 1 - i] == 0xA5;
    CHECK(guards);
  };
  check_out();

  // The quad form, where this target has it and the weights fit int8.
  if (!table.has_quad() || !nnhal::simd::conv_q8_quad_fits(w.data(), -p.filter_offset, w.size())) return;
  INFO("quad form");
  const std::int32_t x_zero = -p.input_offset + (std::is_signed_v<X> ? 128 : 0);
  const std::size_t in_c4 = (s.in_c + 3) / 4 * 4;
  std::vector<std::uint8_t> in8((std::size_t{s.batch} * s.in_h * s.in_w + 1) * in_c4, 77);
  nnhal::simd::conv_q8_quad_input(x.data(), std::size_t{s.batch} * s.in_h * s.in_w, s.in_c,
                                  static_cast<std::uint8_t>(x_zero), in8.data());
  std::vector<std::int32_t> quad(nnhal::simd::conv_q8_quad_slots(s.out_c, taps, s.in_c, nr), 99);
  nnhal::simd::conv_q8_pack_quad(w.data(), -p.filter_offset, x_zero, bias.data(), mult.data(), per_channel ? 1 : 0,
                                 s.out_c, taps, s.in_c, nr, quad.data());
  std::fill(out.begin(), out.end(), std::uint8_t{0xA5});
  a.in = nullptr, a.in_u8 = in8.data(), a.quad = true, a.in_c4 = in_c4, a.packed = quad.data();
  run();
  check_out();

  // Rows of whole groups of four: the image read in place (int8 with its top bits flipped as
  // the kernel reads them), the zero row elsewhere (flipped too).
  if (in_c4 != s.in_c) return;
  INFO("quad form, input in place");
  const bool flip = std::is_signed_v<X>;
  const std::vector<std::uint8_t> zero_row(in_c4, static_cast<std::uint8_t>(flip ? x_zero ^ 0x80 : x_zero));
  std::fill(out.begin(), out.end(), std::uint8_t{0xA5});
  a.in_u8 = reinterpret_cast<const std::uint8_t*>(x.data()), a.zero_row_u8 = zero_row.data(), a.quad_flip = flip;
  run();
  check_out();
}

}  // namespace

TEST_CASE("simd::conv_q8 equals the plain integer kernel on random geometries") {
  st::for_each_target([](const st::Target& t) {
    const std::uint32_t N = static_cast<std::uint32_t>(t.lanes_f32());
    std::mt19937 gen(77);
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen); };
    const std::uint32_t channels[] = {1, 3, N, N + 1, 2 * N, 2 * N + 3, 4 * N, 4 * N + 1, 5 * N + 7};
    for (int i = 0; i < 45; ++i) {
      Shape s{};
      s.batch = static_cast<std::uint32_t>(pick(1, 2));
      s.fh = static_cast<std::uint32_t>(pick(1, 3)), s.fw = static_cast<std::uint32_t>(pick(1, 3));
      s.sh = pick(1, 2), s.sw = pick(1, 3), s.dh = pick(1, 2), s.dw = pick(1, 2);
      const int eff_h = static_cast<int>(s.fh - 1) * s.dh + 1, eff_w = static_cast<int>(s.fw - 1) * s.dw + 1;
      s.pt = pick(0, eff_h - 1), s.pb = pick(0, eff_h - 1), s.pl = pick(0, eff_w - 1), s.pr = pick(0, eff_w - 1);
      s.in_h = static_cast<std::uint32_t>(pick(1, 8)), s.in_w = static_cast<std::uint32_t>(pick(1, 11));
      while (static_cast<int>(s.in_h) + s.pt + s.pb < eff_h) ++s.in_h;
      while (static_cast<int>(s.in_w) + s.pl + s.pr < eff_w) ++s.in_w;
      s.in_c = static_cast<std::uint32_t>(pick(1, 21));
      s.out_c = channels[static_cast<std::size_t>(i) % std::size(channels)];
      const auto seed = static_cast<std::uint32_t>(300 + i);
      check_shape<std::uint8_t, std::uint8_t>(t, s, false, seed);
      check_shape<std::int8_t, std::int8_t>(t, s, false, seed + 1);
      check_shape<std::uint8_t, std::uint8_t>(t, s, false, seed + 4, false, true);  // centered filters
      check_shape<std::int8_t, std::int8_t>(t, s, false, seed + 5, false, true);
      check_shape<std::uint8_t, std::int8_t>(t, s, true, seed + 2);
      check_shape<std::int8_t, std::int8_t>(t, s, true, seed + 3);
    }
  });
}

TEST_CASE("simd::conv_q8 rescales int32 sums of any magnitude as the scalar code (full-range biases)") {
  st::for_each_target([](const st::Target& t) {
    for (std::uint32_t i = 0; i < 12; ++i) {
      check_shape<std::uint8_t, std::uint8_t>(t, {1, 3, 5, 4, 37, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0}, false, 900 + i, true);
      check_shape<std::int8_t, std::int8_t>(t, {1, 3, 5, 3, 70, 2, 2, 1, 1, 1, 1, 1, 0, 0, 1}, true, 950 + i, true);
    }
  });
}

TEST_CASE("simd::conv_q8 on a 3x3 SAME shape with 64 channels, every pixel-tile tail") {
  st::for_each_target([](const st::Target& t) {
    check_shape<std::uint8_t, std::uint8_t>(t, {1, 7, 9, 64, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, false, 1);
    for (std::uint32_t w = 1; w <= 13; ++w)
      check_shape<std::int8_t, std::int8_t>(t, {1, 1, w, 5, 40, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0}, true, 10 + w);
  });
}

TEST_CASE("simd::conv_q8 pointwise (1x1 filter, stride 1, no padding): every pixel-tile tail, batches, pixel ranges") {
  // The tile reads pixel p's row straight from the image here; the last tile of an image or of
  // a pixel range repeats its last row past the valid pixels.
  st::for_each_target([](const st::Target& t) {
    const std::uint32_t N = static_cast<std::uint32_t>(t.lanes_f32());
    const std::uint32_t channels[] = {4 * N + 1, 64, 2 * N + 1, 5};
    std::uint32_t seed = 2000;
    for (std::uint32_t w = 1; w <= 13; ++w)
      for (std::uint32_t h : {1u, 3u}) {
        const Shape s{1 + w % 2, h, w, 3 + w % 6 * 4, channels[w % std::size(channels)], 1, 1, 1, 1, 1, 1, 0, 0, 0, 0};
        const std::size_t piece = w % 3 == 0 ? 0 : (w % 3 == 1 ? 12 : 7);
        CAPTURE(piece);
        // below_half: the AVX3_DL one-rounding rescale, per tensor and per channel
        check_shape<std::uint8_t, std::uint8_t>(t, s, false, seed++, false, false, true, piece);
        check_shape<std::int8_t, std::int8_t>(t, s, true, seed++, false, false, true, piece);
        check_shape<std::uint8_t, std::int8_t>(t, s, true, seed++, false, false, false, piece);
        check_shape<std::int8_t, std::int8_t>(t, s, false, seed++, false, true, false, piece);
      }
  });
}

TEST_CASE("simd::conv_q8 with large filters: up to 25 taps the tile finds each tap's rows once, beyond per panel") {
  st::for_each_target([](const st::Target& t) {
    const std::uint32_t N = static_cast<std::uint32_t>(t.lanes_f32());
    const Shape shapes[] = {
        {1, 8, 9, 5, 2 * N + 3, 5, 5, 1, 1, 1, 1, 2, 2, 2, 2},  // 25 taps
        {2, 9, 8, 3, N + 1, 6, 5, 1, 2, 1, 1, 2, 3, 2, 2},      // 30 taps
        {1, 3, 30, 4, 4 * N + 1, 1, 26, 1, 1, 1, 1, 0, 3, 0, 3},  // 26 taps in one row
        {1, 10, 10, 6, 2 * N, 7, 7, 1, 1, 2, 2, 6, 6, 6, 6},    // 49 dilated taps, most in the padding
    };
    std::uint32_t seed = 1500;
    for (const Shape& s : shapes) {
      check_shape<std::uint8_t, std::uint8_t>(t, s, false, seed++);
      check_shape<std::int8_t, std::int8_t>(t, s, false, seed++);
      check_shape<std::uint8_t, std::int8_t>(t, s, true, seed++);
      check_shape<std::int8_t, std::int8_t>(t, s, true, seed++, false, false, true);
    }
  });
}

TEST_CASE("simd::conv_q8 widening equals the scalar widening (sizes around the vector width)") {
  st::for_each_target([](const st::Target& t) {
    const nnhal::simd::ConvQ8& table = nnhal::simd::conv_q8_table(t.target);
    std::mt19937 gen(9);
    for (std::size_t n : st::sizes(2 * t.lanes_f32())) {
      CAPTURE(n);
      std::vector<std::uint8_t> u(n);
      std::vector<std::int8_t> s(n);
      for (std::size_t i = 0; i < n; ++i) u[i] = static_cast<std::uint8_t>(gen()), s[i] = static_cast<std::int8_t>(gen());
      std::vector<std::int16_t> got(n + 8, 7), want(n + 8, 7);
      table.widen_u8(u.data(), 131, n, got.data());
      for (std::size_t i = 0; i < n; ++i) want[i] = static_cast<std::int16_t>(u[i] - 131);
      CHECK(got == want);
      table.widen_i8(s.data(), -100, n, got.data());
      for (std::size_t i = 0; i < n; ++i) want[i] = static_cast<std::int16_t>(s[i] + 100);
      CHECK(got == want);
    }
  });
}

TEST_CASE("simd::conv_q8 with every channel's multiplier below 1/2 (AVX2's one-rounding rescale), per channel") {
  st::for_each_target([](const st::Target& t) {
    const std::uint32_t N = static_cast<std::uint32_t>(t.lanes_f32());
    const std::uint32_t channels[] = {1, N + 1, 2 * N, 5 * N + 7, 64};
    for (std::uint32_t i = 0; i < 10; ++i) {
      const Shape s{1 + i % 2, 4, 5, 3 + i, channels[i % std::size(channels)], 1 + i % 3, 1 + i % 2, 1, 1, 1, 1, 0, 0, 0, 0};
      check_shape<std::uint8_t, std::uint8_t>(t, s, false, 1100 + i, i % 2 == 1, false, true);
      check_shape<std::int8_t, std::int8_t>(t, s, false, 1200 + i, i % 2 == 0, true, true);
      check_shape<std::uint8_t, std::int8_t>(t, s, true, 1300 + i, i % 2 == 1, false, true);
      check_shape<std::int8_t, std::int8_t>(t, s, true, 1400 + i, i % 2 == 0, false, true);
    }
  });
}

}  // namespace test_simd_conv_q8
