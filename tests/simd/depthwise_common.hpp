#pragma once
/// \file
/// Random NHWC, depth-multiplier-1 depthwise geometries shared by the depthwise SIMD family
/// tests (tests/simd/depthwise_f32.cpp, tests/simd/depthwise_q8.cpp): the Conv the scalar
/// reference kernels take, with the fast 3x3 stride-1 / stride-2 shapes mixed in.

#include <algorithm>
#include <cstdint>
#include <random>

#include "nnhal/kernels/depthwise_conv_2d.hpp"

namespace nnhal::test::depthwise {

/// A random problem: 1..2 images up to 9 x 26, 1..41 channels (tails of every vector width),
/// filters 1..4 (3x3 with dilation 1 and stride 1 or 2 one time in two), strides 1..3,
/// dilations 1..2, paddings below the effective filter.
inline kernels::depthwise_conv_2d::Conv random_conv(std::mt19937& g) {
  auto pick = [&](int lo, int hi) { return static_cast<std::int32_t>(std::uniform_int_distribution<int>(lo, hi)(g)); };
  for (;;) {
    kernels::depthwise_conv_2d::Conv cv;
    const bool fast = pick(0, 1) == 1;
    const auto n = static_cast<std::uint32_t>(pick(1, 2)), h = static_cast<std::uint32_t>(pick(1, 9)),
               w = static_cast<std::uint32_t>(pick(1, 26)), c = static_cast<std::uint32_t>(pick(1, 41));
    auto& geo = cv.g;
    geo.filter_h = fast ? 3 : pick(1, 4), geo.filter_w = fast ? 3 : pick(1, 4);
    geo.stride_h = fast ? pick(1, 2) : pick(1, 3), geo.stride_w = fast ? geo.stride_h : pick(1, 3);
    geo.dilation_h = fast ? 1 : pick(1, 2), geo.dilation_w = fast ? 1 : pick(1, 2);
    const std::int32_t eh = (geo.filter_h - 1) * geo.dilation_h + 1, ew = (geo.filter_w - 1) * geo.dilation_w + 1;
    geo.pad_h = {pick(0, eh - 1), pick(0, eh - 1)};
    geo.pad_w = {pick(0, ew - 1), pick(0, ew - 1)};
    const std::int64_t sh = std::int64_t{h} + geo.pad_h.head + geo.pad_h.tail - eh;
    const std::int64_t sw = std::int64_t{w} + geo.pad_w.head + geo.pad_w.tail - ew;
    if (sh < 0 || sw < 0) continue;
    geo.out_h = static_cast<std::uint32_t>(sh / geo.stride_h + 1), geo.out_w = static_cast<std::uint32_t>(sw / geo.stride_w + 1);
    cv.multiplier = 1;
    cv.activation = pick(0, 3);
    cv.in = kernels::window::Image::of(Dims{n, h, w, c}, false);
    cv.out = kernels::window::Image::of(Dims{n, geo.out_h, geo.out_w, c}, false);
    return cv;
  }
}

/// A 3x3, dilation 1, stride 1 or 2 problem with rows wide enough for the groups of 8 outputs
/// of the row routines (one image, 3..6 rows, 10..40 columns, 16..48 channels: full 16-lane
/// blocks with and without a tail), any padding below the filter.
/// Other widths and channel counts: [min_w, max_w] columns, [min_c, max_c] channels.
inline kernels::depthwise_conv_2d::Conv random_wide_conv(std::mt19937& g, int min_w = 10, int max_w = 40, int min_c = 16,
                                                         int max_c = 48) {
  auto pick = [&](int lo, int hi) { return static_cast<std::int32_t>(std::uniform_int_distribution<int>(lo, hi)(g)); };
  kernels::depthwise_conv_2d::Conv cv;
  const auto h = static_cast<std::uint32_t>(pick(3, 6)), w = static_cast<std::uint32_t>(pick(min_w, max_w)),
             c = static_cast<std::uint32_t>(pick(min_c, max_c));
  auto& geo = cv.g;
  geo.filter_h = 3, geo.filter_w = 3, geo.dilation_h = 1, geo.dilation_w = 1;
  geo.stride_h = pick(1, 2), geo.stride_w = geo.stride_h;
  geo.pad_h = {pick(0, 2), pick(0, 2)};
  geo.pad_w = {pick(0, 2), pick(0, 2)};
  geo.out_h = static_cast<std::uint32_t>((std::int64_t{h} + geo.pad_h.head + geo.pad_h.tail - 3) / geo.stride_h + 1);
  geo.out_w = static_cast<std::uint32_t>((std::int64_t{w} + geo.pad_w.head + geo.pad_w.tail - 3) / geo.stride_w + 1);
  cv.multiplier = 1;
  cv.activation = pick(0, 3);
  cv.in = kernels::window::Image::of(Dims{1, h, w, c}, false);
  cv.out = kernels::window::Image::of(Dims{1, geo.out_h, geo.out_w, c}, false);
  return cv;
}

}  // namespace nnhal::test::depthwise
