#pragma once
/// \file
/// L2_NORMALIZATION kernels (the row: nnhal/ops/l2_normalization.hpp): each element divided by the
/// L2 norm of its slice along an axis (input 1, the last by default), over FLOAT32 and FLOAT16
/// (computed in float; the norm is at least 1e-6, so an all-zero slice gives zeros) and both
/// quant8 types with the reference's integer 1/sqrt. Quantized outputs have the fixed scale 1/128
/// and zeroPoint 128 (QA8) or 0 (QAS8). Input rank <= 4.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "nnhal/kernels/common/axis.hpp"
#include "nnhal/kernels/common/elementwise.hpp"
#include "nnhal/kernels/common/fixed_point.hpp"
#include "nnhal/kernels/common/quantization.hpp"
#include "nnhal/ops/l2_normalization.hpp"

namespace nnhal::kernels::l2_normalization {

/// The axis input, -1 when it is left out.
inline std::int32_t axis_of(const NodeIO& io) noexcept {
  return io.input_count() > 1 ? io.scalar<OperandType::INT32>(1) : -1;
}

/// Output shape = input shape; rank <= 4 and the axis in range.
inline Status infer(const NodeIO& io) {
  NNHAL_TRY(elementwise::infer_same_shape(io, "L2_NORMALIZATION", 4));
  if (auto a = resolve_axis(axis_of(io), io.input(0).dims.rank(), "L2_NORMALIZATION"); !a)
    return std::move(a.error());
  return {};
}

template <OperandType T>
Status kernel_float(const NodeIO& io) {
  const auto in = io.in<T>(0);
  const auto out = io.out<T>(0);
  auto axis = resolve_axis(axis_of(io), in.dims().rank(), "L2_NORMALIZATION");
  if (!axis) return std::move(axis.error());
  const AxisSplit s = split_at(in.dims(), *axis);
  constexpr float kEpsilon = 1e-6f;
  for (std::size_t o = 0; o < s.outer; ++o) {
    for (std::size_t i = 0; i < s.inner; ++i) {
      const std::size_t base = o * s.axis * s.inner + i;
      float sum = 0.0f;
      for (std::size_t a = 0; a < s.axis; ++a) {
        const auto v = static_cast<float>(in[base + a * s.inner]);
        sum += v * v;
      }
      const float norm = std::max(std::sqrt(sum), kEpsilon);
      for (std::size_t a = 0; a < s.axis; ++a) {
        const float r = static_cast<float>(in[base + a * s.inner]) / norm;
        if constexpr (T == OperandType::TENSOR_FLOAT16)
          out[base + a * s.inner] = Half(r);
        else
          out[base + a * s.inner] = r;
      }
    }
  }
  return {};
}

template <OperandType T>
Status kernel_quant(const NodeIO& io) {
  using E = element_t<T>;
  constexpr bool is_signed = T == OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
  const auto in = io.in<T>(0);
  const auto out = io.out<T>(0);
  auto axis = resolve_axis(axis_of(io), in.dims().rank(), "L2_NORMALIZATION");
  if (!axis) return std::move(axis.error());
  const AxisSplit s = split_at(in.dims(), *axis);
  const std::int32_t zero_point = in.zero_point();
  // The reference runs TFLite's reference_integer_ops::L2Normalization for a signed input along
  // the last axis (the output scale folded into the shift) and its own loop (input * 128, then
  // the multiplier) in every other case; both are reproduced.
  const bool signed_last_axis = is_signed && *axis + 1 == in.dims().rank();
  for (std::size_t o = 0; o < s.outer; ++o) {
    for (std::size_t i = 0; i < s.inner; ++i) {
      const std::size_t base = o * s.axis * s.inner + i;
      std::int32_t sum = 0;
      for (std::size_t a = 0; a < s.axis; ++a) {
        const std::int32_t v = static_cast<std::int32_t>(in[base + a * s.inner]) - zero_point;
        sum += v * v;
      }
      const quant::Multiplier inv = fixed::inv_sqrt_multiplier(sum);
      for (std::size_t a = 0; a < s.axis; ++a) {
        const std::int32_t v = static_cast<std::int32_t>(in[base + a * s.inner]) - zero_point;
        std::int32_t r;
        if (signed_last_axis)
          r = quant::multiply_by_quantized_multiplier(v, inv.value, inv.shift + 7);
        else
          r = quant::multiply_by_quantized_multiplier(v * 128, inv.value, inv.shift) + (is_signed ? 0 : 128);
        out[base + a * s.inner] =
            static_cast<E>(std::clamp<std::int32_t>(r, std::numeric_limits<E>::min(), std::numeric_limits<E>::max()));
      }
    }
  }
  return {};
}

/// L2_NORMALIZATION's kernels; a quantized output must be declared at scale 1/128 with zeroPoint
/// 128 (QA8) or 0 (QAS8).
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                                    OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_ASYMM_SIGNED};

  static Status infer(const NodeIO& io) { return l2_normalization::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO& io, KernelPrepare&) {
    if constexpr (T == OperandType::TENSOR_FLOAT32 || T == OperandType::TENSOR_FLOAT16) {
      return &kernel_float<T>;
    } else {
      NNHAL_TRY(elementwise::require_output_quant(io, "L2_NORMALIZATION", 1.0f / 128,
                                                  T == OperandType::TENSOR_QUANT8_ASYMM ? 128 : 0));
      return &kernel_quant<T>;
    }
  }
};

}  // namespace nnhal::kernels::l2_normalization

namespace nnhal {

template <>
struct Kernels<OperationType::L2_NORMALIZATION> : kernels::l2_normalization::Family {};
static_assert(kernels_cover_row<OperationType::L2_NORMALIZATION>());

}  // namespace nnhal
