#pragma once
/// \file
/// SIMD family: the 8-bit (QUANT8_ASYMM / QUANT8_ASYMM_SIGNED) NHWC convolution (one group),
/// the integer counterpart of nnhal/simd/conv_f32.hpp, with the reference's numerics: int32
/// accumulation of (x - x_zero) * (w - w_zero) products plus the bias, then
/// quant::multiply_by_quantized_multiplier, the output offset and the activation clamp. The
/// per-target code is in nnhal/simd/conv_q8-inl.h; targets without a kernel (panel_width 0)
/// leave the node to the plain integer kernel.
///
/// Operands are widened to int16 once: the input (minus its zero point) into an image with an
/// even channel count in_c2 (the odd channel's pair partner is 0) followed by in_c2 zeros (the
/// row of a tap in the padding); the filter (minus its zero point) into panels. For a panel
/// width NR and K2 = filter_h * filter_w * in_c2 / 2: ceil(out_c / NR) panels, each holding NR
/// int32 biases, the NR channels' Q31 multipliers, their left shifts and their right shifts
/// (the rescaling, one lane per channel), then for every tap and channel pair the NR int32
/// slots of those channels, a slot holding the pair's two int16 weights (channel 2i in the low
/// half). Channels past out_c are 0.
///
/// Quad form (targets with AVX-512 VNNI, weights packed at prepare, every weight minus its zero
/// point in [-128, 127]): the input is kept as unsigned bytes (int8 data plus 128) in an image
/// of in_c4 channels (in_c rounded up to 4) followed by a row of the input zero point (as
/// unsigned), a slot holds four int8 weights, and vpdpbusd multiplies-adds four byte pairs per
/// lane. sum (x - x_zero) * w = sum x * w - x_zero * sum w, so the packed bias holds bias -
/// x_zero * (sum of the channel's weights); padded channels and taps in the padding read the
/// zero point and add nothing. When in_c is a multiple of 4 the image is the input itself, read
/// in place (int8 with each byte's top bit flipped as it is read: quad_flip), and the zero row
/// is elsewhere (zero_row_u8).

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "nnhal/simd/dispatch.hpp"

namespace nnhal::simd {

/// One run of the 8-bit convolution.
struct ConvQ8Args {
  const std::int16_t* in = nullptr;  ///< [batch, in_h, in_w, in_c2] then in_c2 zeros
  const std::uint8_t* in_u8 = nullptr;  ///< quad form: [batch, in_h, in_w, in_c4] then the zero row
  /// Quad form: the zero row (in_c4 bytes) when it does not follow the image, e.g. when in_u8 is
  /// the caller's uint8 input itself.
  const std::uint8_t* zero_row_u8 = nullptr;
  /// Quad form: in_u8 holds int8 input, read in place as the unsigned bytes int8 + 128 (the top
  /// bit of each byte flipped as it is read; the zero row's too).
  bool quad_flip = false;
  bool quad = false;
  std::uint8_t* out = nullptr;       ///< [batch, out_h, out_w, out_c] bytes (uint8 or int8)
  const std::int32_t* packed = nullptr;
  std::size_t batch = 0, in_h = 0, in_w = 0, in_c2 = 0, in_c4 = 0;
  std::size_t out_h = 0, out_w = 0, out_c = 0;
  std::size_t filter_h = 0, filter_w = 0;
  std::int64_t stride_h = 1, stride_w = 1, dilation_h = 1, dilation_w = 1, pad_top = 0, pad_left = 0;
  std::size_t panel = 0;
  std::int32_t output_offset = 0, act_min = 0, act_max = 0;
  bool signed_output = false;  ///< int8 storage (else uint8)
  /// Output pixels [pixel_begin, pixel_end) of every image (pixel = oy * out_w + ox; the end is
  /// clamped to out_h * out_w): a piece of the run for a thread. A pixel's value does not depend
  /// on the range it is computed in.
  std::size_t pixel_begin = 0, pixel_end = SIZE_MAX;
};

/// Pixel ranges whose lengths are multiples of this keep the register tiles whole.
inline constexpr std::size_t kConvQ8PixelGrain = 12;

/// The family's entry points for one target.
struct ConvQ8 {
  /// Output channels per packed panel for out_c channels; 0: no kernel on this target.
  std::size_t (*panel_width)(std::size_t out_c);
  void (*run)(const ConvQ8Args& args);
  /// out[i] = in[i] - zero for i < n (uint8 or int8 input): the widening of an image whose
  /// channel count is even (conv_q8_widen_input does any image).
  void (*widen_u8)(const std::uint8_t* in, std::int32_t zero, std::size_t n, std::int16_t* out);
  void (*widen_i8)(const std::int8_t* in, std::int32_t zero, std::size_t n, std::int16_t* out);
  /// True when run() takes the quad form (ConvQ8Args::quad).
  bool (*has_quad)();
};

/// int32 slots of a panel before its weights: biases, multipliers, left and right shifts.
inline constexpr std::size_t kConvQ8PanelHeader = 4;

/// int32 slots of the packed filter, or 0 on overflow.
inline std::size_t conv_q8_packed_slots(std::size_t out_c, std::size_t taps, std::size_t in_c, std::size_t nr) noexcept {
  if (nr == 0) return 0;
  const std::size_t pairs = (in_c + 1) / 2, panels = (out_c + nr - 1) / nr;
  std::size_t k2 = 0, per = 0, all = 0;
  if (__builtin_mul_overflow(taps, pairs, &k2) || __builtin_mul_overflow(k2 + kConvQ8PanelHeader, nr, &per) ||
      __builtin_mul_overflow(per, panels, &all))
    return 0;
  return all;
}

/// Packs filter [out_c, taps, in_c] of element W (minus `zero`), bias [out_c] and the
/// multipliers (M: quant::Multiplier or any type with its `value` and `shift`;
/// multipliers[oc * step]: step 0 for one multiplier) into `dst`
/// (conv_q8_packed_slots slots).
template <class W, class M>
void conv_q8_pack(const W* filter, std::int32_t zero, const std::int32_t* bias, const M* multipliers,
                  std::size_t step, std::size_t out_c, std::size_t taps, std::size_t in_c, std::size_t nr,
                  std::int32_t* dst) noexcept {
  const std::size_t pairs = (in_c + 1) / 2, k2 = taps * pairs, panels = (out_c + nr - 1) / nr;
  for (std::size_t j = 0; j < panels; ++j) {
    std::int32_t* p = dst + j * (k2 + kConvQ8PanelHeader) * nr;
    for (std::size_t c = 0; c < nr; ++c) {
      const std::size_t oc = j * nr + c;
      const M m = oc < out_c ? multipliers[oc * step] : M{};
      p[c] = oc < out_c ? bias[oc] : 0;
      p[nr + c] = m.value;
      p[2 * nr + c] = m.shift > 0 ? m.shift : 0;
      p[3 * nr + c] = m.shift > 0 ? 0 : -m.shift;
    }
    p += kConvQ8PanelHeader * nr;
    for (std::size_t t = 0; t < taps; ++t)
      for (std::size_t i = 0; i < pairs; ++i)
        for (std::size_t c = 0; c < nr; ++c) {
          const std::size_t oc = j * nr + c;
          std::int16_t pair[2] = {0, 0};
          for (std::size_t h = 0; h < 2; ++h)
            if (oc < out_c && 2 * i + h < in_c)
              pair[h] = static_cast<std::int16_t>(std::int32_t{filter[(oc * taps + t) * in_c + 2 * i + h]} - zero);
          std::memcpy(p + (t * pairs + i) * nr + c, pair, sizeof pair);
        }
  }
}

/// int32 slots of the quad-form packed filter, or 0 on overflow.
inline std::size_t conv_q8_quad_slots(std::size_t out_c, std::size_t taps, std::size_t in_c, std::size_t nr) noexcept {
  return conv_q8_packed_slots(out_c, taps, (in_c + 3) / 4 * 2, nr);  // in_c4 / 4 groups per tap
}

/// True when every weight minus `zero` fits int8 (the quad form applies).
template <class W>
bool conv_q8_quad_fits(const W* filter, std::int32_t zero, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; ++i) {
    const std::int32_t v = std::int32_t{filter[i]} - zero;
    if (v < -128 || v > 127) return false;
  }
  return true;
}

/// Packs the quad form: filter [out_c, taps, in_c] of element W (minus `zero`, which must fit
/// int8), the bias with x_zero * sum of weights taken off (x_zero: the input zero point as
/// unsigned byte), and the multipliers, into `dst` (conv_q8_quad_slots slots).
template <class W, class M>
void conv_q8_pack_quad(const W* filter, std::int32_t zero, std::int32_t x_zero, const std::int32_t* bias,
                       const M* multipliers, std::size_t step, std::size_t out_c, std::size_t taps,
                       std::size_t in_c, std::size_t nr, std::int32_t* dst) noexcept {
  const std::size_t groups = (in_c + 3) / 4, k4 = taps * groups, panels = (out_c + nr - 1) / nr;
  for (std::size_t j = 0; j < panels; ++j) {
    std::int32_t* p = dst + j * (k4 + kConvQ8PanelHeader) * nr;
    for (std::size_t c = 0; c < nr; ++c) {
      const std::size_t oc = j * nr + c;
      const M m = oc < out_c ? multipliers[oc * step] : M{};
      std::uint32_t sum = 0;
      for (std::size_t i = 0; oc < out_c && i < taps * in_c; ++i)
        sum += static_cast<std::uint32_t>(std::int32_t{filter[oc * taps * in_c + i]} - zero);
      p[c] = oc < out_c ? static_cast<std::int32_t>(static_cast<std::uint32_t>(bias[oc]) -
                                                    static_cast<std::uint32_t>(x_zero) * sum)
                        : 0;
      p[nr + c] = m.value;
      p[2 * nr + c] = m.shift > 0 ? m.shift : 0;
      p[3 * nr + c] = m.shift > 0 ? 0 : -m.shift;
    }
    p += kConvQ8PanelHeader * nr;
    for (std::size_t t = 0; t < taps; ++t)
      for (std::size_t i = 0; i < groups; ++i)
        for (std::size_t c = 0; c < nr; ++c) {
          const std::size_t oc = j * nr + c;
          std::int8_t quad[4] = {0, 0, 0, 0};
          for (std::size_t h = 0; h < 4; ++h)
            if (oc < out_c && 4 * i + h < in_c)
              quad[h] = static_cast<std::int8_t>(std::int32_t{filter[(oc * taps + t) * in_c + 4 * i + h]} - zero);
          std::memcpy(p + (t * groups + i) * nr + c, quad, sizeof quad);
        }
  }
}

/// The quad-form input: image [pixels, in_c] of element X as unsigned bytes (int8 + 128) in
/// [pixels, in_c4], padded channels and a final row of in_c4 holding `fill` (the zero point).
template <class X>
void conv_q8_quad_input(const X* in, std::size_t pixels, std::size_t in_c, std::uint8_t fill, std::uint8_t* dst) noexcept {
  const std::size_t in_c4 = (in_c + 3) / 4 * 4;
  constexpr std::uint8_t flip = std::is_signed_v<X> ? 0x80 : 0;
  if (in_c4 == in_c) {
    const std::size_t n = pixels * in_c;
    std::memcpy(dst, in, n);
    if (flip != 0) {  // + 128 on int8 is a flip of the top bit: eight bytes at a time
      constexpr std::uint64_t kTop = 0x8080808080808080u;
      std::size_t i = 0;
      for (; i + 8 <= n; i += 8) {
        std::uint64_t v;
        std::memcpy(&v, dst + i, 8);
        v ^= kTop;
        std::memcpy(dst + i, &v, 8);
      }
      for (; i < n; ++i) dst[i] = static_cast<std::uint8_t>(dst[i] ^ 0x80);
    }
  } else {
    // Four bytes at a time (per-pixel byte loops become a library call per pixel, which made
    // this pass cost a third of a 224x224x3 layer).
    const std::size_t full = in_c / 4 * 4, rest = in_c - full;  // rest in 1..3
    constexpr std::uint32_t kFlip = std::uint32_t{flip} * 0x01010101u;
    for (std::size_t p = 0; p < pixels; ++p) {
      const auto* s = reinterpret_cast<const std::uint8_t*>(in + p * in_c);
      std::uint8_t* d = dst + p * in_c4;
      for (std::size_t g = 0; g < full; g += 4) {
        std::uint32_t v;
        std::memcpy(&v, s + g, 4);
        v ^= kFlip;
        std::memcpy(d + g, &v, 4);
      }
      // the last group: `rest` input bytes, then fill, built in a register (bytes written
      // one by one and read back as four stall the store forwarding)
      if constexpr (std::endian::native == std::endian::little) {
        std::uint32_t v = std::uint32_t{fill} * 0x01010101u;
        for (std::size_t k = 0; k < rest; ++k)
          v = (v & ~(0xFFu << (8 * k))) | (static_cast<std::uint32_t>(s[full + k] ^ flip) << (8 * k));
        std::memcpy(d + full, &v, 4);
      } else {
        for (std::size_t k = 0; k < 4; ++k)
          d[full + k] = k < rest ? static_cast<std::uint8_t>(s[full + k] ^ flip) : fill;
      }
    }
  }
  std::memset(dst + pixels * in_c4, fill, in_c4);
}

/// Widens image [pixels, in_c] of element X minus `zero` into [pixels, in_c2] int16 followed by
/// in_c2 zeros (in_c2 = in_c rounded up to even).
template <class X>
void conv_q8_widen_input(const X* in, std::int32_t zero, std::size_t pixels, std::size_t in_c, std::int16_t* dst) noexcept {
  const std::size_t in_c2 = (in_c + 1) / 2 * 2;
  for (std::size_t p = 0; p < pixels; ++p) {
    const X* s = in + p * in_c;
    std::int16_t* d = dst + p * in_c2;
    for (std::size_t c = 0; c < in_c; ++c) d[c] = static_cast<std::int16_t>(std::int32_t{s[c]} - zero);
    if (in_c2 != in_c) d[in_c] = 0;
  }
  std::memset(dst + pixels * in_c2, 0, in_c2 * sizeof(std::int16_t));
}

}  // namespace nnhal::simd

#define NNHAL_SIMD_FAMILY_INL "nnhal/simd/conv_q8-inl.h"
#include "nnhal/simd/foreach_target-inl.h"
#undef NNHAL_SIMD_FAMILY_INL

namespace nnhal::simd {

/// The family's entry points compiled for `target` (default: the one this process runs).
inline const ConvQ8& conv_q8_table(std::int64_t target = chosen_target()) noexcept {
  static constexpr PerTarget<ConvQ8> kTables[] = NNHAL_SIMD_PER_TARGET(kConvQ8);
  return pick(kTables, target);
}

}  // namespace nnhal::simd
