#pragma once
/// \file
/// SOFTMAX kernels (the row: nnhal/ops/softmax.hpp): `exp(beta * (x - max)) / sum` along an axis
/// (input 2, the last by default), over FLOAT32 and FLOAT16 (computed in float) and both quant8
/// types with the reference's fixed-point algorithm (differences rescaled to Q5.26, gemmlowp
/// exp, sum in Q12.19, one reciprocal). Input rank <= 4, beta > 0; zero-sized tensors allowed.

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "nnhal/kernels/common/axis.hpp"
#include "nnhal/kernels/common/elementwise.hpp"
#include "nnhal/kernels/common/fixed_point.hpp"
#include "nnhal/kernels/common/quantization.hpp"
#include "nnhal/kernels/common/simd_params.hpp"
#include "nnhal/ops/softmax.hpp"
#include "nnhal/simd/softmax_f32.hpp"

namespace nnhal::kernels::softmax {

/// beta as float (FLOAT16 for TENSOR_FLOAT16 data, FLOAT32 otherwise).
inline float beta_of(const NodeIO& io) noexcept {
  return io.input(0).type == OperandType::TENSOR_FLOAT16 ? static_cast<float>(io.scalar<OperandType::FLOAT16>(1))
                                                         : io.scalar<OperandType::FLOAT32>(1);
}

/// The axis input, -1 when it is left out.
inline std::int32_t axis_of(const NodeIO& io) noexcept {
  return io.input_count() > 2 ? io.scalar<OperandType::INT32>(2) : -1;
}

/// Output shape = input shape; rank <= 4, beta > 0 and the axis in range.
inline Status infer(const NodeIO& io) {
  NNHAL_TRY(elementwise::infer_same_shape(io, "SOFTMAX", 4));
  const float beta = beta_of(io);
  if (!(beta > 0.0f)) return NNHAL_INVALID("SOFTMAX beta %g must be positive", static_cast<double>(beta));
  if (auto a = resolve_axis(axis_of(io), io.input(0).dims.rank(), "SOFTMAX"); !a) return std::move(a.error());
  return {};
}

template <OperandType T>
Status kernel_float(const NodeIO& io) {
  const auto in = io.in<T>(0);
  const auto out = io.out<T>(0);
  if (in.size() == 0) return {};
  auto axis = resolve_axis(axis_of(io), in.dims().rank(), "SOFTMAX");
  if (!axis) return std::move(axis.error());
  const float beta = beta_of(io);
  const AxisSplit s = split_at(in.dims(), *axis);
  for (std::size_t o = 0; o < s.outer; ++o) {
    for (std::size_t i = 0; i < s.inner; ++i) {
      const std::size_t base = o * s.axis * s.inner + i;
      float max = -FLT_MAX;
      for (std::size_t a = 0; a < s.axis; ++a) max = std::max(max, static_cast<float>(in[base + a * s.inner]));
      float sum = 0.0f;
      for (std::size_t a = 0; a < s.axis; ++a) sum += std::exp((static_cast<float>(in[base + a * s.inner]) - max) * beta);
      for (std::size_t a = 0; a < s.axis; ++a) {
        const float r = std::exp((static_cast<float>(in[base + a * s.inner]) - max) * beta) / sum;
        if constexpr (T == OperandType::TENSOR_FLOAT16)
          out[base + a * s.inner] = Half(r);
        else
          out[base + a * s.inner] = r;
      }
    }
  }
  return {};
}

/// FLOAT32 along the innermost axis (contiguous rows, the usual case): the SIMD family chosen at
/// prepare (nnhal/simd/softmax_f32.hpp; within a few ulp of kernel_float); any other axis:
/// kernel_float.
inline Status kernel_f32(const NodeIO& io) {
  const auto in = io.in<OperandType::TENSOR_FLOAT32>(0);
  if (in.size() == 0) return {};
  auto axis = resolve_axis(axis_of(io), in.dims().rank(), "SOFTMAX");
  if (!axis) return std::move(axis.error());
  const AxisSplit s = split_at(in.dims(), *axis);
  if (s.inner != 1) return kernel_float<OperandType::TENSOR_FLOAT32>(io);
  io.params<SimdParams<simd::SoftmaxF32>>().simd->rows(in.data(), io.out<OperandType::TENSOR_FLOAT32>(0).data(),
                                                        s.outer, s.axis, beta_of(io));
  return {};
}

/// Integer bits of the scaled differences and of the sum of exponentials.
inline constexpr int kScaledDiffIntegerBits = 5;
inline constexpr int kAccumulationIntegerBits = 12;

/// x / 2^exponent rounded to nearest for x >= 0, also for exponents past 31 (where it is 0).
inline std::int32_t divide_by_pot_nonnegative(std::int32_t x, int exponent) noexcept {
  return exponent > 31 ? 0 : quant::rounding_divide_by_pot(x, exponent);
}

template <OperandType T>
Status kernel_quant(const NodeIO& io) {
  using E = element_t<T>;
  constexpr bool is_signed = std::is_signed_v<E>;
  constexpr std::int32_t q_min = std::numeric_limits<E>::min(), q_max = std::numeric_limits<E>::max();
  const auto in = io.in<T>(0);
  const auto out = io.out<T>(0);
  if (in.size() == 0) return {};
  auto axis = resolve_axis(axis_of(io), in.dims().rank(), "SOFTMAX");
  if (!axis) return std::move(axis.error());
  const float beta = beta_of(io);
  // The reference's multiplier: beta * input scale in Q5.26, capped below 2^31.
  const double real = std::min(1.0 * beta * in.scale() * (1 << (31 - kScaledDiffIntegerBits)), (1LL << 31) - 1.0);
  const auto m = fixed::quantize_multiplier_greater_than_one(real);
  if (!m)
    return NNHAL_FAILURE("SOFTMAX beta %g times input scale %g is too small for the quantized kernel",
                         static_cast<double>(beta), static_cast<double>(in.scale()));
  const std::int32_t diff_min = -fixed::input_radius(kScaledDiffIntegerBits, m->shift);
  using ScaledDiff = fixed::Fixed<kScaledDiffIntegerBits>;
  using Accum = fixed::Fixed<kAccumulationIntegerBits>;
  const AxisSplit s = split_at(in.dims(), *axis);
  for (std::size_t o = 0; o < s.outer; ++o) {
    for (std::size_t i = 0; i < s.inner; ++i) {
      const std::size_t base = o * s.axis * s.inner + i;
      std::int32_t max = q_min < 0 ? q_min : 0;
      for (std::size_t a = 0; a < s.axis; ++a) max = std::max<std::int32_t>(max, in[base + a * s.inner]);
      auto scaled_diff = [&](std::int32_t diff) {
        return ScaledDiff::from_raw(quant::multiply_by_quantized_multiplier(diff, m->value, m->shift));
      };
      Accum sum = Accum::zero();
      for (std::size_t a = 0; a < s.axis; ++a) {
        const std::int32_t diff = static_cast<std::int32_t>(in[base + a * s.inner]) - max;
        if (diff >= diff_min)
          sum = sum + fixed::rescale<kAccumulationIntegerBits>(fixed::exp_on_negative_values(scaled_diff(diff)));
      }
      const auto fixed_sum = static_cast<std::uint32_t>(sum.raw);
      const int headroom_plus_one = fixed::count_leading_zeros(fixed_sum);
      const int num_bits_over_unit = kAccumulationIntegerBits - headroom_plus_one;
      const auto shifted_sum_minus_one = static_cast<std::int32_t>(
          (headroom_plus_one < 32 ? fixed_sum << headroom_plus_one : 0u) - (std::uint32_t{1} << 31));
      const fixed::Fixed<0> shifted_scale =
          fixed::one_over_one_plus_x_for_x_in_0_1(fixed::Fixed<0>::from_raw(shifted_sum_minus_one));
      for (std::size_t a = 0; a < s.axis; ++a) {
        const std::int32_t diff = static_cast<std::int32_t>(in[base + a * s.inner]) - max;
        std::int32_t r = q_min;
        if (diff >= diff_min) {
          const fixed::Fixed<0> e = fixed::exp_on_negative_values(scaled_diff(diff));
          r = divide_by_pot_nonnegative((shifted_scale * e).raw, num_bits_over_unit + 31 - 8) - (is_signed ? 128 : 0);
          r = std::clamp(r, q_min, q_max);
        }
        out[base + a * s.inner] = static_cast<E>(r);
      }
    }
  }
  return {};
}

/// The quantized kernel's exponentials precomputed at prepare (when beta is a constant): for
/// an 8-bit input, x - max is one of 256 values, so exp_on_negative_values of each, and its
/// Q12.19 rescaling for the sum, are looked up instead of computed per element. Entries with
/// x - max below the reference's cut-off (diff_min) hold -1: they contribute nothing and
/// output the minimum, as in kernel_quant. Results are bit for bit those of kernel_quant.
struct QuantExpTable {
  std::int32_t exp[256];  ///< Fixed<0> raw of exp(scaled(-k)), k = max - x; -1 below diff_min
  std::int32_t sum[256];  ///< the same rescaled to Q12.19 (the sum's format)
};

/// Fills `t` for `beta` and input scale `scale`; false when the reference's multiplier does not
/// exist (the kernel then fails at run time as kernel_quant does).
inline bool make_exp_table(float beta, float scale, QuantExpTable& t) noexcept {
  const double real = std::min(1.0 * beta * scale * (1 << (31 - kScaledDiffIntegerBits)), (1LL << 31) - 1.0);
  const auto m = fixed::quantize_multiplier_greater_than_one(real);
  if (!m) return false;
  const std::int32_t diff_min = -fixed::input_radius(kScaledDiffIntegerBits, m->shift);
  using ScaledDiff = fixed::Fixed<kScaledDiffIntegerBits>;
  for (std::int32_t k = 0; k < 256; ++k) {
    if (-k < diff_min) {
      t.exp[k] = t.sum[k] = -1;
      continue;
    }
    const auto e = fixed::exp_on_negative_values(ScaledDiff::from_raw(quant::multiply_by_quantized_multiplier(-k, m->value, m->shift)));
    t.exp[k] = e.raw;
    t.sum[k] = fixed::rescale<kAccumulationIntegerBits>(e).raw;
  }
  return true;
}

/// kernel_quant with the exponentials from the node's packed QuantExpTable.
template <OperandType T>
Status kernel_quant_table(const NodeIO& io) {
  using E = element_t<T>;
  constexpr bool is_signed = std::is_signed_v<E>;
  constexpr std::int32_t q_min = std::numeric_limits<E>::min(), q_max = std::numeric_limits<E>::max();
  const auto in = io.in<T>(0);
  const auto out = io.out<T>(0);
  if (in.size() == 0) return {};
  auto axis = resolve_axis(axis_of(io), in.dims().rank(), "SOFTMAX");
  if (!axis) return std::move(axis.error());
  const auto& table = *reinterpret_cast<const QuantExpTable*>(io.packed());
  const AxisSplit s = split_at(in.dims(), *axis);
  const E* x = in.data();
  E* y = out.data();
  for (std::size_t o = 0; o < s.outer; ++o) {
    for (std::size_t i = 0; i < s.inner; ++i) {
      const std::size_t base = o * s.axis * s.inner + i;
      std::int32_t max = q_min < 0 ? q_min : 0;
      for (std::size_t a = 0; a < s.axis; ++a) max = std::max<std::int32_t>(max, x[base + a * s.inner]);
      std::int32_t sum = 0;
      for (std::size_t a = 0; a < s.axis; ++a) {
        const std::int32_t t = table.sum[max - x[base + a * s.inner]];
        sum = fixed::wrap_add(sum, t < 0 ? 0 : t);
      }
      const auto fixed_sum = static_cast<std::uint32_t>(sum);
      const int headroom_plus_one = fixed::count_leading_zeros(fixed_sum);
      const int num_bits_over_unit = kAccumulationIntegerBits - headroom_plus_one;
      const auto shifted_sum_minus_one = static_cast<std::int32_t>(
          (headroom_plus_one < 32 ? fixed_sum << headroom_plus_one : 0u) - (std::uint32_t{1} << 31));
      const fixed::Fixed<0> shifted_scale =
          fixed::one_over_one_plus_x_for_x_in_0_1(fixed::Fixed<0>::from_raw(shifted_sum_minus_one));
      const int shift = num_bits_over_unit + 31 - 8;
      for (std::size_t a = 0; a < s.axis; ++a) {
        const std::int32_t e = table.exp[max - x[base + a * s.inner]];
        std::int32_t r = q_min;
        if (e >= 0) {
          r = divide_by_pot_nonnegative((shifted_scale * fixed::Fixed<0>::from_raw(e)).raw, shift) - (is_signed ? 128 : 0);
          r = std::clamp(r, q_min, q_max);
        }
        y[base + a * s.inner] = static_cast<E>(r);
      }
    }
  }
  return {};
}

/// SOFTMAX's kernels; a quantized output must be declared at scale 1/256 with zeroPoint 0 (QA8)
/// or -128 (QAS8), which the reference's kernel checks. Quirk: spec/operations.md section
/// "25 SOFTMAX" calls that output quantization "not enforced by the executor", but the
/// reference's Softmax.cpp execute rejects other values; we follow the reference (at prepare,
/// GENERAL_FAILURE naming the operation). No corpus model declares another quantization.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_QUANT8_ASYMM,
                                    OperandType::TENSOR_FLOAT16, OperandType::TENSOR_QUANT8_ASYMM_SIGNED};

  static Status infer(const NodeIO& io) { return softmax::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO& io, KernelPrepare& prepare) {
    if constexpr (T == OperandType::TENSOR_FLOAT32) {
      prepare.store(simd_params(simd::softmax_f32()));
      return &kernel_f32;
    } else if constexpr (T == OperandType::TENSOR_FLOAT16) {
      return &kernel_float<T>;
    } else {
      NNHAL_TRY(elementwise::require_output_quant(io, "SOFTMAX", 1.0f / 256,
                                                  T == OperandType::TENSOR_QUANT8_ASYMM_SIGNED ? -128 : 0));
      const RtOperand& beta = io.input(1);
      const bool constant_beta = beta.lifetime == OperandLifeTime::CONSTANT_COPY ||
                                 beta.lifetime == OperandLifeTime::CONSTANT_REFERENCE;
      if (constant_beta && io.input(0).scale > 0.0f) {
        QuantExpTable table;
        // (No packed storage: a dry run of the support query, which only needs some kernel.)
        std::byte* packed = make_exp_table(beta_of(io), io.input(0).scale, table) ? prepare.pack(sizeof table) : nullptr;
        if (packed != nullptr) {
          std::memcpy(packed, &table, sizeof table);
          return &kernel_quant_table<T>;
        }
      }
      return &kernel_quant<T>;
    }
  }
};

}  // namespace nnhal::kernels::softmax

namespace nnhal {

template <>
struct Kernels<OperationType::SOFTMAX> : kernels::softmax::Family {};
static_assert(kernels_cover_row<OperationType::SOFTMAX>());

}  // namespace nnhal
