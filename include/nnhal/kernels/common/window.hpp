#pragma once
/// \file
/// Geometry shared by the windowed 2-D operations (convolutions, pooling, resize): the padding
/// schemes, output sizes, the scalars that describe a window, and a 4-D image seen in NHWC order
/// whatever its memory layout.

#include <cstddef>
#include <cstdint>

#include "nnhal/core/dims.hpp"
#include "nnhal/core/result.hpp"
#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/activation.hpp"

namespace nnhal::kernels::window {

/// Implicit padding schemes (HAL13.md: 1 SAME, 2 VALID; 0 means no padding, as VALID).
inline constexpr std::int32_t kPaddingSame = 1;
inline constexpr std::int32_t kPaddingValid = 2;

/// Padding of one spatial axis, before and after.
struct Pad {
  std::int32_t head = 0;
  std::int32_t tail = 0;
};

/// The effective extent of a dilated filter: (filter - 1) * dilation + 1.
constexpr std::int64_t effective_filter(std::int64_t filter, std::int64_t dilation) noexcept {
  return (filter - 1) * dilation + 1;
}

/// Explicit padding of an implicit scheme, as the reference computes it: SAME pads
/// (out - 1) * stride + effective_filter - in (when positive), head = total / 2. For a transpose
/// convolution `in` is the output size and the tail is that total minus the head even when the
/// total is negative (the reference's "fit tightly to the end of the last stride").
constexpr Pad implicit_padding(std::int64_t in, std::int64_t stride, std::int64_t dilation,
                               std::int64_t filter, std::int32_t scheme, bool transpose = false) noexcept {
  Pad p;
  if (scheme != kPaddingSame || stride <= 0) return p;
  const std::int64_t out = (in + stride - 1) / stride;
  const std::int64_t total = (out - 1) * stride + effective_filter(filter, dilation) - in;
  if (total > 0) {
    p.head = static_cast<std::int32_t>(total / 2);
    p.tail = static_cast<std::int32_t>(total - total / 2);
  }
  if (transpose) p.tail = static_cast<std::int32_t>(total - p.head);
  return p;
}

/// Output size of a window sliding over `in` elements with explicit padding:
/// (in - effective_filter + stride + head + tail) / stride, or 0 for an empty input. Negative
/// when the padded input is shorter than the filter (an error for the caller to report).
constexpr std::int64_t output_size(std::int64_t in, std::int64_t filter, std::int64_t stride,
                                   std::int64_t dilation, Pad pad) noexcept {
  if (in == 0) return 0;
  const std::int64_t span = in + pad.head + pad.tail - effective_filter(filter, dilation);
  if (span < 0) return -1;
  return span / stride + 1;
}

/// Output size of a transpose convolution: in * stride + filter - stride - head - tail.
constexpr std::int64_t transpose_output_size(std::int64_t in, std::int64_t filter, std::int64_t stride,
                                             Pad pad) noexcept {
  return in * stride + filter - stride - pad.head - pad.tail;
}

/// A rank-4 activation tensor seen as [batch, height, width, channels], with the element
/// strides of its memory layout (NHWC, or NCHW when the layout flag is true).
struct Image {
  std::uint32_t n = 0, h = 0, w = 0, c = 0;
  std::size_t sn = 0, sh = 0, sw = 0, sc = 0;
  bool nchw = false;  ///< the memory layout (not derivable from the strides: a 1 x 1 NCHW image has sc == 1)

  /// The image of `dims` (rank 4) in layout `nchw`.
  static Image of(const Dims& dims, bool nchw) noexcept {
    Image im;
    im.n = dims[0];
    im.nchw = nchw;
    if (nchw) {
      im.c = dims[1], im.h = dims[2], im.w = dims[3];
      im.sw = 1, im.sh = im.w, im.sc = std::size_t{im.h} * im.w, im.sn = im.sc * im.c;
    } else {
      im.h = dims[1], im.w = dims[2], im.c = dims[3];
      im.sc = 1, im.sw = im.c, im.sh = std::size_t{im.w} * im.c, im.sn = im.sh * im.h;
    }
    return im;
  }
  /// Element offset of (batch b, row y, column x, channel ch).
  constexpr std::size_t at(std::size_t b, std::size_t y, std::size_t x, std::size_t ch) const noexcept {
    return b * sn + y * sh + x * sw + ch * sc;
  }
  constexpr bool nhwc() const noexcept { return !nchw; }
  /// Dims of an image of this layout with the given sizes.
  static Dims dims(bool nchw, std::uint32_t n, std::uint32_t h, std::uint32_t w, std::uint32_t c) noexcept {
    return nchw ? Dims{n, c, h, w} : Dims{n, h, w, c};
  }
};

/// The scalars of a windowed operation. From input `first` its explicit form has
///   pad_left, pad_right, pad_top, pad_bottom, stride_w, stride_h, <extras>, activation,
///   [layout, [dilation_w, dilation_h]]
/// and its implicit form
///   padding_scheme, stride_w, stride_h, <extras>, activation, [layout, [dilation_w, dilation_h]]
/// where <extras> are `extra_count` INT32 scalars (the pool filter size, the depth multiplier,
/// the number of groups). The forms are told apart by the input after the implicit form's
/// activation: an INT32 there belongs to the explicit form (the layout flag is a BOOL).
struct Scalars {
  bool explicit_form = false;
  std::int32_t scheme = 0;     ///< implicit form only
  Pad pad_w, pad_h;            ///< explicit form only (resolve() fills them for the implicit form)
  std::int32_t stride_w = 1, stride_h = 1;
  std::int32_t extra[2] = {0, 0};
  std::int32_t activation = 0;
  bool nchw = false;
  std::int32_t dilation_w = 1, dilation_h = 1;
};

/// Reads and checks the scalars described at Scalars. `op` names the operation in messages.
inline Expected<Scalars> read_scalars(const NodeIO& io, std::size_t first, std::size_t extra_count,
                                      const char* op) {
  Scalars s;
  const std::size_t implicit_next = first + 3 + extra_count + 1;
  s.explicit_form = io.input_count() > implicit_next && io.input(implicit_next).type == OperandType::INT32;
  std::size_t i = first;
  const auto int_at = [&](std::size_t k) { return io.scalar<OperandType::INT32>(k); };
  if (s.explicit_form) {
    s.pad_w = {int_at(i), int_at(i + 1)};
    s.pad_h = {int_at(i + 2), int_at(i + 3)};
    i += 4;
    if (s.pad_w.head < 0 || s.pad_w.tail < 0 || s.pad_h.head < 0 || s.pad_h.tail < 0)
      return NNHAL_FAILURE("%s has a negative padding (%" PRId32 ", %" PRId32 ", %" PRId32
                           ", %" PRId32 ")",
                           op, s.pad_w.head, s.pad_w.tail, s.pad_h.head, s.pad_h.tail);
  } else {
    s.scheme = int_at(i++);
    if (s.scheme < 0 || s.scheme > kPaddingValid)
      return NNHAL_FAILURE("%s has an invalid padding scheme %" PRId32, op, s.scheme);
  }
  s.stride_w = int_at(i), s.stride_h = int_at(i + 1);
  i += 2;
  if (s.stride_w < 1 || s.stride_h < 1)
    return NNHAL_FAILURE("%s has a non-positive stride (%" PRId32 ", %" PRId32 ")", op, s.stride_w,
                         s.stride_h);
  for (std::size_t e = 0; e < extra_count && e < 2; ++e) s.extra[e] = int_at(i++);
  s.activation = int_at(i++);
  if (!is_valid_activation(s.activation))
    return NNHAL_FAILURE("%s has an invalid fused activation %" PRId32, op, s.activation);
  if (io.has_input(i)) s.nchw = io.scalar<OperandType::BOOL>(i) != 0;
  ++i;
  if (io.has_input(i) && io.has_input(i + 1)) {
    s.dilation_w = int_at(i), s.dilation_h = int_at(i + 1);
    if (s.dilation_w < 1 || s.dilation_h < 1)
      return NNHAL_FAILURE("%s has a non-positive dilation (%" PRId32 ", %" PRId32 ")", op,
                           s.dilation_w, s.dilation_h);
  }
  return s;
}

/// The resolved geometry of a window over an input image: paddings in both forms, and the
/// output's spatial size.
struct Geometry {
  Pad pad_w, pad_h;
  std::int32_t stride_w = 1, stride_h = 1, dilation_w = 1, dilation_h = 1;
  std::int32_t filter_w = 1, filter_h = 1;
  std::uint32_t out_h = 0, out_w = 0;
};

/// Resolves `s` for an input of in_h x in_w and a filter of filter_h x filter_w; fails when the
/// padded input is smaller than the (dilated) filter or the output would be too large.
inline Expected<Geometry> resolve(const Scalars& s, std::uint32_t in_h, std::uint32_t in_w,
                                  std::int32_t filter_h, std::int32_t filter_w, const char* op) {
  if (filter_h < 1 || filter_w < 1)
    return NNHAL_FAILURE("%s has a non-positive filter size (%" PRId32 " x %" PRId32 ")", op,
                         filter_h, filter_w);
  Geometry g;
  g.stride_w = s.stride_w, g.stride_h = s.stride_h, g.dilation_w = s.dilation_w, g.dilation_h = s.dilation_h;
  g.filter_w = filter_w, g.filter_h = filter_h;
  if (s.explicit_form) {
    g.pad_w = s.pad_w, g.pad_h = s.pad_h;
  } else {
    g.pad_w = implicit_padding(in_w, s.stride_w, s.dilation_w, filter_w, s.scheme);
    g.pad_h = implicit_padding(in_h, s.stride_h, s.dilation_h, filter_h, s.scheme);
  }
  const std::int64_t oh = output_size(in_h, filter_h, s.stride_h, s.dilation_h, g.pad_h);
  const std::int64_t ow = output_size(in_w, filter_w, s.stride_w, s.dilation_w, g.pad_w);
  if (oh < 0 || ow < 0)
    return NNHAL_FAILURE("%s: the padded input (%" PRIu32 " x %" PRIu32
                         ") is smaller than the filter (%" PRId32 " x %" PRId32
                         ", dilation %" PRId32 " x %" PRId32 ")",
                         op, in_h, in_w, filter_h, filter_w, s.dilation_h, s.dilation_w);
  if (oh > INT32_MAX || ow > INT32_MAX) return NNHAL_FAILURE("%s output is too large", op);
  g.out_h = static_cast<std::uint32_t>(oh), g.out_w = static_cast<std::uint32_t>(ow);
  return g;
}

}  // namespace nnhal::kernels::window
