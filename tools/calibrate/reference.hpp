#pragma once
/// \file
/// The "CPU reference" of the calibrator (docs/calibration.md): plain scalar C++ loops that
/// compute what each representative model computes, written the obvious way, with no SIMD
/// intrinsics, no dispatch and no validation. They are compiled into the calibrator with the
/// same flags as nnhal, so the compiler treats both alike. PerformanceInfo figures are nnhal's
/// time divided by the time of these loops.
///
/// Quantized loops rescale in float instead of nnhal's fixed-point multipliers: the same
/// computation to within one unit of the last place, which the calibrator allows when it
/// checks nnhal's output against them.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "nnhal/core/half.hpp"

namespace nnhal::calibrate {

/// Scale and zero point of a quantized operand (both 0 for other types).
struct Quant {
  float scale = 0.0f;
  std::int32_t zero_point = 0;
};

/// What a reference loop needs besides its input and output buffers.
struct RefArgs {
  std::size_t count = 0;                             ///< output elements (elementwise loops)
  std::size_t outer = 0, inner0 = 0, inner1 = 0;     ///< concatenation along the last axis
  std::size_t batch = 0, input_size = 0, units = 0;  ///< fully connected
  Quant q0, q1, qout;                                ///< input 0, input 1 (or weights), output
  std::vector<std::byte> weights, bias;              ///< fully connected constants
};

/// A reference loop: reads `in[0..]`, writes `out`.
using ReferenceFn = void (*)(const RefArgs&, const std::byte* const* in, std::byte* out);

namespace ref {

template <class E>
const E* as(const std::byte* p) noexcept {
  return reinterpret_cast<const E*>(p);
}
template <class E>
E* as_mut(std::byte* p) noexcept {
  return reinterpret_cast<E*>(p);
}

/// Rounds half away from zero (cheap and inline; quantized results may differ from nnhal's
/// fixed-point rounding by one unit, which the calibrator's check allows).
inline std::int32_t round_to_int(float v) noexcept {
  return static_cast<std::int32_t>(v >= 0.0f ? v + 0.5f : v - 0.5f);
}

template <class E>
E clamp_to(std::int32_t v) noexcept {
  constexpr std::int32_t lo = std::numeric_limits<E>::min(), hi = std::numeric_limits<E>::max();
  return static_cast<E>(v < lo ? lo : (v > hi ? hi : v));
}

/// Elementwise functions on the element types the models use. Integer arithmetic wraps.
struct Plus {
  static float apply(float a, float b) noexcept { return a + b; }
  static std::int32_t apply(std::int32_t a, std::int32_t b) noexcept {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
  }
  static Half apply(Half a, Half b) noexcept {
    return Half(static_cast<float>(a) + static_cast<float>(b));
  }
};
struct Times {
  static float apply(float a, float b) noexcept { return a * b; }
  static std::int32_t apply(std::int32_t a, std::int32_t b) noexcept {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) * static_cast<std::uint32_t>(b));
  }
  static Half apply(Half a, Half b) noexcept {
    return Half(static_cast<float>(a) * static_cast<float>(b));
  }
};

/// out[i] = Op(a[i], b[i]).
template <class E, class Op>
void binary(const RefArgs& args, const std::byte* const* in, std::byte* out) {
  const E* a = as<E>(in[0]);
  const E* b = as<E>(in[1]);
  E* o = as_mut<E>(out);
  for (std::size_t i = 0; i < args.count; ++i) o[i] = Op::apply(a[i], b[i]);
}

/// out[i] = a[i] < b[i] (FLOAT16 compared as float).
template <class E>
void less(const RefArgs& args, const std::byte* const* in, std::byte* out) {
  const E* a = as<E>(in[0]);
  const E* b = as<E>(in[1]);
  std::uint8_t* o = as_mut<std::uint8_t>(out);
  for (std::size_t i = 0; i < args.count; ++i) {
    if constexpr (std::is_same_v<E, Half>)
      o[i] = static_cast<float>(a[i]) < static_cast<float>(b[i]) ? 1 : 0;
    else
      o[i] = a[i] < b[i] ? 1 : 0;
  }
}

/// Quantized a < b, compared by real value.
template <class E>
void quant_less(const RefArgs& args, const std::byte* const* in, std::byte* out) {
  const E* a = as<E>(in[0]);
  const E* b = as<E>(in[1]);
  std::uint8_t* o = as_mut<std::uint8_t>(out);
  for (std::size_t i = 0; i < args.count; ++i) {
    const float ra =
        static_cast<float>(static_cast<std::int32_t>(a[i]) - args.q0.zero_point) * args.q0.scale;
    const float rb =
        static_cast<float>(static_cast<std::int32_t>(b[i]) - args.q1.zero_point) * args.q1.scale;
    o[i] = ra < rb ? 1 : 0;
  }
}

/// Quantized a + b: both brought to the output scale, summed, rounded, offset, clamped.
template <class E>
void quant_add(const RefArgs& args, const std::byte* const* in, std::byte* out) {
  const E* a = as<E>(in[0]);
  const E* b = as<E>(in[1]);
  E* o = as_mut<E>(out);
  const float m0 = args.q0.scale / args.qout.scale, m1 = args.q1.scale / args.qout.scale;
  for (std::size_t i = 0; i < args.count; ++i) {
    const float r = static_cast<float>(a[i] - args.q0.zero_point) * m0 +
                    static_cast<float>(b[i] - args.q1.zero_point) * m1;
    o[i] = clamp_to<E>(round_to_int(r) + args.qout.zero_point);
  }
}

/// Quantized a * b: integer product of the offset values, rescaled once.
template <class E>
void quant_mul(const RefArgs& args, const std::byte* const* in, std::byte* out) {
  const E* a = as<E>(in[0]);
  const E* b = as<E>(in[1]);
  E* o = as_mut<E>(out);
  const float m = args.q0.scale * args.q1.scale / args.qout.scale;
  for (std::size_t i = 0; i < args.count; ++i) {
    const std::int32_t p = (a[i] - args.q0.zero_point) * (b[i] - args.q1.zero_point);
    o[i] = clamp_to<E>(round_to_int(static_cast<float>(p) * m) + args.qout.zero_point);
  }
}

/// out[b, u] = bias[u] + sum_k x[b, k] * w[u, k] in float (FLOAT32 and FLOAT16 storage).
template <class E>
void fully_connected(const RefArgs& args, const std::byte* const* in, std::byte* out) {
  const E* x = as<E>(in[0]);
  const E* w = as<E>(args.weights.data());
  const E* bias = as<E>(args.bias.data());
  E* o = as_mut<E>(out);
  for (std::size_t b = 0; b < args.batch; ++b)
    for (std::size_t u = 0; u < args.units; ++u) {
      float sum = 0.0f;
      for (std::size_t k = 0; k < args.input_size; ++k)
        sum += static_cast<float>(x[b * args.input_size + k]) *
               static_cast<float>(w[u * args.input_size + k]);
      o[b * args.units + u] = E(sum + static_cast<float>(bias[u]));
    }
}

/// Quantized fully connected: int32 accumulation of offset products plus an int32 bias,
/// rescaled by input_scale * weights_scale / output_scale.
template <class E>
void quant_fully_connected(const RefArgs& args, const std::byte* const* in, std::byte* out) {
  const E* x = as<E>(in[0]);
  const E* w = as<E>(args.weights.data());
  const std::int32_t* bias = as<std::int32_t>(args.bias.data());
  E* o = as_mut<E>(out);
  const float m = args.q0.scale * args.q1.scale / args.qout.scale;
  for (std::size_t b = 0; b < args.batch; ++b)
    for (std::size_t u = 0; u < args.units; ++u) {
      std::int32_t acc = bias[u];
      for (std::size_t k = 0; k < args.input_size; ++k)
        acc += (x[b * args.input_size + k] - args.q0.zero_point) *
               (w[u * args.input_size + k] - args.q1.zero_point);
      o[b * args.units + u] =
          clamp_to<E>(round_to_int(static_cast<float>(acc) * m) + args.qout.zero_point);
    }
}

/// Concatenation of two tensors along their last axis.
template <class E>
void concat_last_axis(const RefArgs& args, const std::byte* const* in, std::byte* out) {
  const E* a = as<E>(in[0]);
  const E* b = as<E>(in[1]);
  E* o = as_mut<E>(out);
  for (std::size_t r = 0; r < args.outer; ++r) {
    for (std::size_t i = 0; i < args.inner0; ++i) *o++ = a[r * args.inner0 + i];
    for (std::size_t i = 0; i < args.inner1; ++i) *o++ = b[r * args.inner1 + i];
  }
}

/// Element conversion (From and To may be the same type: a copy).
template <class From, class To>
void convert(const RefArgs& args, const std::byte* const* in, std::byte* out) {
  const From* a = as<From>(in[0]);
  To* o = as_mut<To>(out);
  for (std::size_t i = 0; i < args.count; ++i) {
    if constexpr (std::is_same_v<From, Half>)
      o[i] = static_cast<To>(static_cast<float>(a[i]));
    else
      o[i] = static_cast<To>(a[i]);
  }
}

/// Boolean loops on TENSOR_BOOL8 bytes (non-zero = true); results are 0 or 1.
inline void logical_and(const RefArgs& args, const std::byte* const* in, std::byte* out) {
  const std::uint8_t* a = as<std::uint8_t>(in[0]);
  const std::uint8_t* b = as<std::uint8_t>(in[1]);
  std::uint8_t* o = as_mut<std::uint8_t>(out);
  for (std::size_t i = 0; i < args.count; ++i) o[i] = (a[i] != 0 && b[i] != 0) ? 1 : 0;
}
inline void logical_or(const RefArgs& args, const std::byte* const* in, std::byte* out) {
  const std::uint8_t* a = as<std::uint8_t>(in[0]);
  const std::uint8_t* b = as<std::uint8_t>(in[1]);
  std::uint8_t* o = as_mut<std::uint8_t>(out);
  for (std::size_t i = 0; i < args.count; ++i) o[i] = (a[i] != 0 || b[i] != 0) ? 1 : 0;
}
inline void logical_not(const RefArgs& args, const std::byte* const* in, std::byte* out) {
  const std::uint8_t* a = as<std::uint8_t>(in[0]);
  std::uint8_t* o = as_mut<std::uint8_t>(out);
  for (std::size_t i = 0; i < args.count; ++i) o[i] = a[i] == 0 ? 1 : 0;
}
inline void equal_bytes(const RefArgs& args, const std::byte* const* in, std::byte* out) {
  const std::uint8_t* a = as<std::uint8_t>(in[0]);
  const std::uint8_t* b = as<std::uint8_t>(in[1]);
  std::uint8_t* o = as_mut<std::uint8_t>(out);
  for (std::size_t i = 0; i < args.count; ++i) o[i] = a[i] == b[i] ? 1 : 0;
}

/// IF by hand: out = x + (c ? 1 : -1), the branch taken once per call.
inline void branch_add(const RefArgs& args, const std::byte* const* in, std::byte* out) {
  const std::uint8_t c = *as<std::uint8_t>(in[0]);
  const float* x = as<float>(in[1]);
  float* o = as_mut<float>(out);
  if (c != 0) {
    for (std::size_t i = 0; i < args.count; ++i) o[i] = x[i] + 1.0f;
  } else {
    for (std::size_t i = 0; i < args.count; ++i) o[i] = x[i] + -1.0f;
  }
}

/// WHILE by hand: i = i0; while (i < limit) i = i + 1. The empty asm keeps the compiler from
/// replacing the loop with its closed form, so each iteration really compares and adds.
inline void counting_loop(const RefArgs&, const std::byte* const* in, std::byte* out) {
  std::int32_t i = *as<std::int32_t>(in[0]);
  const std::int32_t limit = *as<std::int32_t>(in[1]);
  while (i < limit) {
    i = i + 1;
    __asm__ __volatile__("" : "+r"(i));
  }
  *as_mut<std::int32_t>(out) = i;
}

}  // namespace ref
}  // namespace nnhal::calibrate
