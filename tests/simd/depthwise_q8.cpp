// nnhal::simd::depthwise_q8 (include/nnhal/simd/depthwise_q8.hpp) on every compiled target this
// CPU runs: bit for bit the 8-bit reference kernel nnhal::kernels::depthwise_conv_2d::
// reference_quant, for uint8 / uint8 x int8 (per-channel) / int8, on random NHWC geometries
// (generic path, 3x3 stride 1 / 2 rows, channel tails, borders; the AVX-512 and AVX2 row
// routines), random zero points, per-channel multipliers with left and right shifts,
// activations; nothing outside the output is written.

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "nnhal/kernels/common/quantization.hpp"
#include "nnhal/kernels/depthwise_conv_2d.hpp"
#include "nnhal/simd/depthwise_q8.hpp"
#include "simd/depthwise_common.hpp"
#include "simd/simd_tester.hpp"

namespace {

namespace st = nnhal::test::simd;
namespace dw = nnhal::kernels::depthwise_conv_2d;

template <class E, class F>
void check(const st::Target& t, const dw::Conv& cv, std::mt19937& g, double log_multiplier = -6.0, double spread = 3.0) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(g); };
  const std::size_t C = cv.in.c, in_n = std::size_t{cv.in.n} * cv.in.h * cv.in.w * C;
  const std::size_t out_n = std::size_t{cv.out.n} * cv.out.h * cv.out.w * C;
  const std::size_t f_n = std::size_t(cv.g.filter_h) * cv.g.filter_w * C;
  constexpr std::size_t kGuard = 64;
  std::vector<E> in(in_n), out(out_n + 2 * kGuard, E{42}), ref(out_n);
  std::vector<F> filter(f_n);
  std::vector<std::int32_t> bias(C), mult(C), left(C), right(C);
  std::vector<nnhal::quant::Multiplier> table(C);
  for (auto& x : in) x = static_cast<E>(pick(std::numeric_limits<E>::min(), std::numeric_limits<E>::max()));
  for (auto& x : filter) x = static_cast<F>(pick(std::numeric_limits<F>::min(), std::numeric_limits<F>::max()));
  for (auto& x : bias) x = pick(-40000, 40000);
  std::lognormal_distribution<double> real(log_multiplier, spread);  // by default multipliers from ~1e-6 to ~100
  for (std::size_t c = 0; c < C; ++c) {
    table[c] = nnhal::quant::quantize_multiplier(real(g));
    mult[c] = table[c].value, left[c] = table[c].shift > 0 ? table[c].shift : 0, right[c] = table[c].shift > 0 ? 0 : -table[c].shift;
  }
  dw::QuantParams p;
  p.input_offset = -pick(std::numeric_limits<E>::min(), std::numeric_limits<E>::max());
  p.filter_offset = std::is_same_v<E, F> ? -pick(std::numeric_limits<F>::min(), std::numeric_limits<F>::max()) : 0;
  p.output_offset = pick(std::numeric_limits<E>::min(), std::numeric_limits<E>::max());
  p.channels = static_cast<std::uint32_t>(C), p.per_channel = true;
  nnhal::quant::QuantRange range{std::numeric_limits<E>::min(), std::numeric_limits<E>::max()};
  if (pick(0, 1) == 1) range = {pick(range.min, range.min + 60), pick(range.max - 60, range.max)};
  const auto& geo = cv.g;
  const nnhal::simd::DepthwiseQ8Args args{in.data(), filter.data(), bias.data(), out.data() + kGuard,
                                          cv.out.n, cv.in.h, cv.in.w, C, cv.out.h, cv.out.w,
                                          static_cast<std::size_t>(geo.filter_h), static_cast<std::size_t>(geo.filter_w),
                                          geo.stride_h, geo.stride_w, geo.dilation_h, geo.dilation_w, geo.pad_h.head,
                                          geo.pad_w.head, p.input_offset, p.filter_offset, p.output_offset, range.min,
                                          range.max, mult.data(), left.data(), right.data(), 0, SIZE_MAX};
  const auto& table_q8 = nnhal::simd::depthwise_q8_table(t.target);
  if constexpr (std::is_same_v<E, std::int8_t>)
    table_q8.s8(args);
  else if constexpr (std::is_same_v<F, std::int8_t>)
    table_q8.u8_s8(args);
  else
    table_q8.u8(args);
  dw::reference_quant(in.data(), filter.data(), bias.data(), ref.data(), cv, p, table.data(), range);
  std::size_t bad = 0, guards = 0;
  for (std::size_t i = 0; i < out_n; ++i) bad += out[kGuard + i] != ref[i];
  for (std::size_t i = 0; i < kGuard; ++i) guards += (out[i] != E{42}) + (out[kGuard + out_n + i] != E{42});
  CHECK(bad == 0);
  CHECK(guards == 0);
  // The same rows computed as two pieces (as two threads run them) give the same bytes.
  std::vector<E> pieces(out_n + 2 * kGuard, E{42});
  nnhal::simd::DepthwiseQ8Args half = args;
  half.out = pieces.data() + kGuard;
  const std::size_t split = cv.out.h / 2;
  for (const auto& [begin, end] : {std::pair<std::size_t, std::size_t>{0, split}, {split, SIZE_MAX}}) {
    half.row_begin = begin, half.row_end = end;
    if constexpr (std::is_same_v<E, std::int8_t>)
      table_q8.s8(half);
    else if constexpr (std::is_same_v<F, std::int8_t>)
      table_q8.u8_s8(half);
    else
      table_q8.u8(half);
  }
  std::size_t differ = 0;
  for (std::size_t i = 0; i < pieces.size(); ++i) differ += pieces[i] != out[i];
  CHECK(differ == 0);
}

}  // namespace

TEST_CASE("simd::depthwise_q8 equals the 8-bit reference bit for bit (random geometries and requantization)") {
  st::for_each_target([](const st::Target& t) {
    std::mt19937 g(11);
    for (std::uint32_t i = 0; i < 80; ++i) {
      const dw::Conv cv = nnhal::test::depthwise::random_conv(g);
      CAPTURE(i);
      INFO("h=" << cv.in.h << " w=" << cv.in.w << " c=" << cv.in.c << " f=" << cv.g.filter_h << "x" << cv.g.filter_w
                << " s=" << cv.g.stride_h << "," << cv.g.stride_w << " d=" << cv.g.dilation_h << "," << cv.g.dilation_w);
      check<std::uint8_t, std::uint8_t>(t, cv, g);
      check<std::uint8_t, std::int8_t>(t, cv, g);
      check<std::int8_t, std::int8_t>(t, cv, g);
    }
  });
}

TEST_CASE("simd::depthwise_q8 equals the 8-bit reference on wide 3x3 rows (the AVX-512 tap-pair routine)") {
  st::for_each_target([](const st::Target& t) {
    std::mt19937 g(23);
    for (std::uint32_t i = 0; i < 40; ++i) {
      const dw::Conv cv = nnhal::test::depthwise::random_wide_conv(g);
      CAPTURE(i);
      INFO("h=" << cv.in.h << " w=" << cv.in.w << " c=" << cv.in.c << " s=" << cv.g.stride_h);
      // multipliers around 1e-6 and 2e-9: right shifts up to 31 and zero multipliers too (the
      // AVX-512 rescale folds the output offset only for shifts <= 22)
      const double log_multiplier = i % 2 == 0 ? -6.0 : -20.0;
      check<std::uint8_t, std::uint8_t>(t, cv, g, log_multiplier);
      check<std::uint8_t, std::int8_t>(t, cv, g, log_multiplier);
      check<std::int8_t, std::int8_t>(t, cv, g, log_multiplier);
    }
  });
}

TEST_CASE("simd::depthwise_q8 equals the 8-bit reference on 3x3 rows too wide for the padded copies or with many channel blocks") {
  // The AVX-512 routine runs whole rows on padded copies of the input rows when three of them
  // fit in 32 KiB, with the per-block constants computed once for up to 16 blocks of 16
  // channels: these take the other paths (interior in place with per-pixel borders; constants
  // computed per row).
  st::for_each_target([](const st::Target& t) {
    std::mt19937 g(31);
    for (std::uint32_t i = 0; i < 6; ++i) {
      const dw::Conv cv = i % 2 == 0 ? nnhal::test::depthwise::random_wide_conv(g, 180, 240, 64, 80)
                                     : nnhal::test::depthwise::random_wide_conv(g, 10, 16, 257, 290);
      CAPTURE(i);
      INFO("h=" << cv.in.h << " w=" << cv.in.w << " c=" << cv.in.c << " s=" << cv.g.stride_h);
      check<std::uint8_t, std::uint8_t>(t, cv, g);
      check<std::uint8_t, std::int8_t>(t, cv, g);
      check<std::int8_t, std::int8_t>(t, cv, g);
    }
  });
}

TEST_CASE("simd::depthwise_q8 equals the 8-bit reference on 3x3 rows of whole 16-channel blocks (the AVX3_DL ring routine)") {
  // Channel counts that are multiples of 16 and rows of 4 to 40 outputs: the ring routine's
  // groups of 8 and of 4 outputs, both strides, every activation, shifts inside and outside
  // its range (log multipliers -6 and -20).
  st::for_each_target([](const st::Target& t) {
    std::mt19937 g(47);
    for (std::uint32_t i = 0; i < 16; ++i) {
      const int c = 16 * (1 + static_cast<int>(i % 4));
      const dw::Conv cv = i % 2 == 0 ? nnhal::test::depthwise::random_wide_conv(g, 4, 12, c, c)
                                     : nnhal::test::depthwise::random_wide_conv(g, 13, 40, c, c);
      CAPTURE(i);
      INFO("h=" << cv.in.h << " w=" << cv.in.w << " c=" << cv.in.c << " s=" << cv.g.stride_h);
      const double log_multiplier = i % 8 < 6 ? -6.0 : -20.0;
      check<std::uint8_t, std::uint8_t>(t, cv, g, log_multiplier);
      check<std::uint8_t, std::int8_t>(t, cv, g, log_multiplier);
      check<std::int8_t, std::int8_t>(t, cv, g, log_multiplier);
    }
  });
}

TEST_CASE("simd::depthwise_q8 equals the 8-bit reference on 3x3 rows of 8-channel blocks (the AVX2 tap-pair routine)") {
  // The AVX2 routine computes whole rows (borders included) in groups of 8 outputs (stride 1,
  // rows of 8 or more) or 4, the last moved back to end at the row's end, on padded rows in
  // 8-channel blocks, the last block partial when the channel count is not a multiple of 8; it
  // takes the runs whose every channel has no left shift and a right shift in [1, 31]. Here: rows
  // of 1 to ~30 outputs (fewer than 4 take the generic path), channel counts that are multiples of
  // 8 and not, strides 1 and 2, one or two images, every activation, and per rescale kind:
  // multipliers around 2.5e-3 (right shifts near 9) and 2e-6 (near 19), taken; a wide spread
  // (left shifts and shifts above 31 mixed in), around 4.5 (left shifts) and 1e-10 (right shifts
  // around 32 and above, zero multipliers), left to the other paths.
  struct Kind {
    double log_multiplier, spread;
  };
  static constexpr Kind kKinds[] = {{-6.0, 0.5}, {-13.0, 0.5}, {-6.0, 3.0}, {1.5, 0.3}, {-23.0, 0.5}};
  static constexpr int kChannels[] = {8, 16, 24, 32, 40, 1, 3, 7, 9, 13, 31, 33};
  st::for_each_target([](const st::Target& t) {
    std::mt19937 g(59);
    for (std::uint32_t i = 0; i < 60; ++i) {
      const int c = kChannels[i % 12];
      const Kind kind = kKinds[i / 12];
      dw::Conv cv = i % 3 == 0 ? nnhal::test::depthwise::random_wide_conv(g, 3, 9, c, c)
                               : nnhal::test::depthwise::random_wide_conv(g, 10, 30, c, c);
      if (i % 5 == 0) {  // two images
        cv.in = nnhal::kernels::window::Image::of(nnhal::Dims{2, cv.in.h, cv.in.w, cv.in.c}, false);
        cv.out = nnhal::kernels::window::Image::of(nnhal::Dims{2, cv.out.h, cv.out.w, cv.out.c}, false);
      }
      CAPTURE(i);
      INFO("n=" << cv.in.n << " h=" << cv.in.h << " w=" << cv.in.w << " c=" << cv.in.c << " s=" << cv.g.stride_h
                << " out_w=" << cv.out.w << " log m=" << kind.log_multiplier << " spread=" << kind.spread);
      check<std::uint8_t, std::uint8_t>(t, cv, g, kind.log_multiplier, kind.spread);
      check<std::uint8_t, std::int8_t>(t, cv, g, kind.log_multiplier, kind.spread);
      check<std::int8_t, std::int8_t>(t, cv, g, kind.log_multiplier, kind.spread);
    }
    // Channel chunks: rows so wide that the padded rows of only a few blocks fit at once, and
    // more blocks than the routine keeps the constants of (32), with and without a partial block.
    for (std::uint32_t i = 0; i < 4; ++i) {
      const dw::Conv cv = i % 2 == 0 ? nnhal::test::depthwise::random_wide_conv(g, 180, 240, 60, 90)
                                     : nnhal::test::depthwise::random_wide_conv(g, 10, 16, 256, 290);
      CAPTURE(i);
      INFO("h=" << cv.in.h << " w=" << cv.in.w << " c=" << cv.in.c << " s=" << cv.g.stride_h);
      check<std::uint8_t, std::uint8_t>(t, cv, g, -6.0, 0.5);
      check<std::uint8_t, std::int8_t>(t, cv, g, -6.0, 0.5);
      check<std::int8_t, std::int8_t>(t, cv, g, -6.0, 0.5);
    }
  });
}
