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
#include <optional>
#include <type_traits>

#include "nnhal/kernels/common/axis.hpp"
#include "nnhal/kernels/common/elementwise.hpp"
#include "nnhal/kernels/common/fixed_point.hpp"
#include "nnhal/kernels/common/quantization.hpp"
#include "nnhal/kernels/common/simd_params.hpp"
#include "nnhal/ops/softmax.hpp"
#include "nnhal/simd/quant8_binary.hpp"
#include "nnhal/simd/quant8_softmax.hpp"
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

/// The reference's scaling of x - max: beta * input scale as a Q5.26 multiplier (capped below
/// 2^31), and diff_min, below which exp is taken as 0.
struct DiffScaling {
  quant::Multiplier multiplier;
  std::int32_t diff_min;
};

/// DiffScaling for `beta` and input scale `scale`; nullopt when the multiplier does not exist.
inline std::optional<DiffScaling> diff_scaling(float beta, float scale) noexcept {
  const double real = std::min(1.0 * beta * scale * (1 << (31 - kScaledDiffIntegerBits)), (1LL << 31) - 1.0);
  const auto m = fixed::quantize_multiplier_greater_than_one(real);
  if (!m) return std::nullopt;
  return DiffScaling{*m, -fixed::input_radius(kScaledDiffIntegerBits, m->shift)};
}

/// exp(scaled x - max) as the reference computes it (x - max >= diff_min).
inline fixed::Fixed<0> exp_of_diff(const DiffScaling& d, std::int32_t diff) noexcept {
  return fixed::exp_on_negative_values(fixed::Fixed<kScaledDiffIntegerBits>::from_raw(
      quant::multiply_by_quantized_multiplier(diff, d.multiplier.value, d.multiplier.shift)));
}

/// 1 / sum of a row's exponentials (Q12.19) as the reference computes it: a Q0.31 scale and the
/// right shift that turns scale * exp into an 8-bit probability.
struct SumReciprocal {
  fixed::Fixed<0> scale;
  int shift;
};

inline SumReciprocal reciprocal_of_sum(std::int32_t sum) noexcept {
  const auto fixed_sum = static_cast<std::uint32_t>(sum);
  const int headroom_plus_one = fixed::count_leading_zeros(fixed_sum);
  const int num_bits_over_unit = kAccumulationIntegerBits - headroom_plus_one;
  const auto shifted_sum_minus_one = static_cast<std::int32_t>(
      (headroom_plus_one < 32 ? fixed_sum << headroom_plus_one : 0u) - (std::uint32_t{1} << 31));
  return {fixed::one_over_one_plus_x_for_x_in_0_1(fixed::Fixed<0>::from_raw(shifted_sum_minus_one)),
          num_bits_over_unit + 31 - 8};
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
  const auto d = diff_scaling(beta, in.scale());
  if (!d)
    return NNHAL_FAILURE("SOFTMAX beta %g times input scale %g is too small for the quantized kernel",
                         static_cast<double>(beta), static_cast<double>(in.scale()));
  const AxisSplit s = split_at(in.dims(), *axis);
  for (std::size_t o = 0; o < s.outer; ++o) {
    for (std::size_t i = 0; i < s.inner; ++i) {
      const std::size_t base = o * s.axis * s.inner + i;
      std::int32_t max = q_min < 0 ? q_min : 0;
      for (std::size_t a = 0; a < s.axis; ++a) max = std::max<std::int32_t>(max, in[base + a * s.inner]);
      std::int32_t sum = 0;
      for (std::size_t a = 0; a < s.axis; ++a) {
        const std::int32_t diff = static_cast<std::int32_t>(in[base + a * s.inner]) - max;
        if (diff >= d->diff_min)
          sum = fixed::wrap_add(sum, fixed::rescale<kAccumulationIntegerBits>(exp_of_diff(*d, diff)).raw);
      }
      const SumReciprocal rec = reciprocal_of_sum(sum);
      for (std::size_t a = 0; a < s.axis; ++a) {
        const std::int32_t diff = static_cast<std::int32_t>(in[base + a * s.inner]) - max;
        std::int32_t r = q_min;
        if (diff >= d->diff_min) {
          r = divide_by_pot_nonnegative((rec.scale * exp_of_diff(*d, diff)).raw, rec.shift) - (is_signed ? 128 : 0);
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
/// x - max below the reference's cut-off (diff_min) contribute nothing (sum 0) and output the
/// minimum (exp -1), as in kernel_quant. Results are bit for bit those of kernel_quant.
struct QuantExpTable {
  std::int32_t exp[256];  ///< Fixed<0> raw of exp(scaled(-k)), k = max - x; -1 below diff_min
  std::int32_t sum[256];  ///< the same rescaled to Q12.19 (the sum's format); 0 below diff_min
};

/// Fills `t` for `beta` and input scale `scale`; false when the reference's multiplier does not
/// exist (the kernel then fails at run time as kernel_quant does).
inline bool make_exp_table(float beta, float scale, QuantExpTable& t) noexcept {
  const auto d = diff_scaling(beta, scale);
  if (!d) return false;
  for (std::int32_t k = 0; k < 256; ++k) {
    if (-k < d->diff_min) {
      t.exp[k] = -1;
      t.sum[k] = 0;
      continue;
    }
    const fixed::Fixed<0> e = exp_of_diff(*d, -k);
    t.exp[k] = e.raw;
    t.sum[k] = fixed::rescale<kAccumulationIntegerBits>(e).raw;
  }
  return true;
}

/// One row of kernel_quant_table, element by element: the n values at x[k * stride] (k < n) whose
/// largest is max, their outputs at y[k * stride].
template <class E>
void quant_row(const QuantExpTable& table, const E* x, E* y, std::size_t n, std::size_t stride,
               std::int32_t max) noexcept {
  constexpr bool is_signed = std::is_signed_v<E>;
  constexpr std::int32_t q_min = std::numeric_limits<E>::min(), q_max = std::numeric_limits<E>::max();
  std::int32_t sum = 0;
  for (std::size_t a = 0; a < n; ++a) sum = fixed::wrap_add(sum, table.sum[max - x[a * stride]]);
  const SumReciprocal rec = reciprocal_of_sum(sum);
  for (std::size_t a = 0; a < n; ++a) {
    const std::int32_t e = table.exp[max - x[a * stride]];
    std::int32_t r = q_min;
    if (e >= 0) {
      r = divide_by_pot_nonnegative((rec.scale * fixed::Fixed<0>::from_raw(e)).raw, rec.shift) - (is_signed ? 128 : 0);
      r = std::clamp(r, q_min, q_max);
    }
    y[a * stride] = static_cast<E>(r);
  }
}

/// One contiguous row (inner == 1) of kernel_quant_table through a per-row output table: for an
/// 8-bit input the output depends only on k = max - x, so out8[k] is computed once for each k
/// the row can hold (0 .. max - min), the rescale by the sum's reciprocal
/// (srdhm(scale, exp) then the rounding right shift) for all of them at once through the
/// quant8_binary family's vector requantization, and each element is then one byte lookup.
/// Bit for bit the per-element computation: the same integer steps on the same exp values.
template <class E>
void quant_row_lut(const QuantExpTable& table, const simd::Quant8Binary& simd, const E* x, E* y, std::size_t n,
                   std::int32_t max, std::int32_t min) noexcept {
  constexpr bool is_signed = std::is_signed_v<E>;
  constexpr std::int32_t q_min = std::numeric_limits<E>::min(), q_max = std::numeric_limits<E>::max();
  std::int32_t sum = 0;
  for (std::size_t a = 0; a < n; ++a) sum = fixed::wrap_add(sum, table.sum[max - x[a]]);
  const SumReciprocal rec = reciprocal_of_sum(sum);
  const auto count = static_cast<std::size_t>(max - min) + 1;
  alignas(64) std::int32_t scaled[256];
  if (rec.shift <= 31) {
    simd.requant(table.exp, scaled, count, rec.scale.raw, 0, rec.shift);
  } else {  // divide_by_pot_nonnegative: 0
    for (std::size_t k = 0; k < count; ++k) scaled[k] = 0;
  }
  E out8[256];
  for (std::size_t k = 0; k < count; ++k)
    out8[k] = static_cast<E>(table.exp[k] < 0 ? q_min : std::clamp(scaled[k] - (is_signed ? 128 : 0), q_min, q_max));
  for (std::size_t a = 0; a < n; ++a) y[a] = out8[max - x[a]];
}

/// The SIMD tables kernel_quant_table runs, chosen at prepare.
struct QuantTableParams {
  const simd::Quant8Binary* binary;  ///< the rescale (requant)
  const simd::Quant8Softmax* rows;   ///< the row's range
};

/// kernel_quant with the exponentials from the node's packed QuantExpTable.
template <OperandType T>
Status kernel_quant_table(const NodeIO& io) {
  using E = element_t<T>;
  constexpr std::int32_t q_min = std::numeric_limits<E>::min();
  const auto in = io.in<T>(0);
  const auto out = io.out<T>(0);
  if (in.size() == 0) return {};
  auto axis = resolve_axis(axis_of(io), in.dims().rank(), "SOFTMAX");
  if (!axis) return std::move(axis.error());
  const auto& table = *reinterpret_cast<const QuantExpTable*>(io.packed());
  const AxisSplit s = split_at(in.dims(), *axis);
  const E* x = in.data();
  E* y = out.data();
  if (s.inner == 1) {
    const QuantTableParams& tables = io.params<QuantTableParams>();
    for (std::size_t o = 0; o < s.outer; ++o) {
      const E* row = x + o * s.axis;
      std::int32_t max = 0, min = 0;
      simd::quant8_min_max(*tables.rows, row, s.axis, &min, &max);
      // The table costs max - min + 1 rescales: worth it unless the row is much shorter.
      if (static_cast<std::size_t>(max - min) < 4 * s.axis) {
        quant_row_lut(table, *tables.binary, row, y + o * s.axis, s.axis, max, min);
        continue;
      }
      quant_row(table, row, y + o * s.axis, s.axis, 1, max);  // the per-element form
    }
    return {};
  }
  for (std::size_t o = 0; o < s.outer; ++o) {
    for (std::size_t i = 0; i < s.inner; ++i) {
      const std::size_t base = o * s.axis * s.inner + i;
      std::int32_t max = q_min < 0 ? q_min : 0;
      for (std::size_t a = 0; a < s.axis; ++a) max = std::max<std::int32_t>(max, x[base + a * s.inner]);
      quant_row(table, x + base, y + base, s.axis, s.inner, max);
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
      if (prepare.reference) return &kernel_float<T>;
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
      if (constant_beta && io.input(0).scale > 0.0f && !prepare.reference) {  // reference: kernel_quant
        QuantExpTable table;
        // (No packed storage: a dry run of the support query, which only needs some kernel.)
        std::byte* packed = make_exp_table(beta_of(io), io.input(0).scale, table) ? prepare.pack(sizeof table) : nullptr;
        if (packed != nullptr) {
          std::memcpy(packed, &table, sizeof table);
          prepare.store(QuantTableParams{&simd::quant8_binary(), &simd::quant8_softmax()});
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
