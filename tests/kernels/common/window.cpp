#include <doctest/doctest.h>

#include <cstdint>

#include "nnhal/kernels/common/window.hpp"

namespace w = nnhal::kernels::window;

TEST_CASE("implicit SAME padding gives ceil(in / stride) outputs and splits the total head-first") {
  for (std::int64_t in = 1; in <= 20; ++in)
    for (std::int64_t stride = 1; stride <= 4; ++stride)
      for (std::int64_t filter = 1; filter <= 5; ++filter)
        for (std::int64_t dilation = 1; dilation <= 3; ++dilation) {
          const w::Pad p = w::implicit_padding(in, stride, dilation, filter, w::kPaddingSame);
          CHECK(p.head >= 0);
          CHECK(p.tail - p.head >= 0);
          CHECK(p.tail - p.head <= 1);
          const std::int64_t out = w::output_size(in, filter, stride, dilation, p);
          // The padded input is covered by exactly ceil(in / stride) windows.
          CHECK(out == (in + stride - 1) / stride);
        }
}

TEST_CASE("implicit VALID padding and scheme 0 pad nothing") {
  for (std::int32_t scheme : {0, w::kPaddingValid}) {
    const w::Pad p = w::implicit_padding(10, 2, 1, 3, scheme);
    CHECK(p.head == 0);
    CHECK(p.tail == 0);
  }
  // VALID: floor((in - eff) / stride) + 1 windows fit inside the input.
  CHECK(w::output_size(10, 3, 2, 1, {}) == 4);
  CHECK(w::output_size(10, 3, 1, 2, {}) == 6);
  CHECK(w::output_size(2, 3, 1, 1, {}) == -1);  // filter larger than the input
  CHECK(w::output_size(0, 3, 1, 1, {}) == 0);
}

TEST_CASE("transpose convolution output size and tight SAME tail") {
  CHECK(w::transpose_output_size(4, 3, 2, {1, 1}) == 7);
  // SAME for a transpose convolution of output 8, stride 2, filter 3: total 1, head 0, tail 1.
  const w::Pad p = w::implicit_padding(8, 2, 1, 3, w::kPaddingSame, true);
  CHECK(p.head == 0);
  CHECK(p.tail == 1);
  // A negative total keeps a negative tail (the reference's tight fit), never a negative head.
  const w::Pad q = w::implicit_padding(8, 4, 1, 2, w::kPaddingSame, true);
  CHECK(q.head == 0);
  CHECK(q.tail == -2);
}

TEST_CASE("Image strides address the same element in NHWC and NCHW") {
  const nnhal::Dims nhwc{2, 3, 4, 5};
  const nnhal::Dims nchw{2, 5, 3, 4};
  const w::Image a = w::Image::of(nhwc, false), b = w::Image::of(nchw, true);
  CHECK(a.n == b.n);
  CHECK(a.h == b.h);
  CHECK(a.w == b.w);
  CHECK(a.c == b.c);
  CHECK(a.nhwc());
  CHECK(!b.nhwc());
  CHECK(a.at(1, 2, 3, 4) == ((1 * 3 + 2) * 4 + 3) * 5 + 4);
  CHECK(b.at(1, 2, 3, 4) == ((1 * 5 + 4) * 3 + 2) * 4 + 3);
  // A one-pixel NCHW image has a unit channel stride too; it is still NCHW (regression: the
  // layout was once read off the channel stride).
  CHECK(!w::Image::of(nnhal::Dims{1, 8, 1, 1}, true).nhwc());
  CHECK(w::Image::dims(true, 2, 3, 4, 5) == nchw);
  CHECK(w::Image::dims(false, 2, 3, 4, 5) == nhwc);
}
