#pragma once
/// \file
/// LOCAL_RESPONSE_NORMALIZATION kernels (the row: nnhal/ops/local_response_normalization.hpp):
/// `x / (bias + alpha * sum(x^2 over [d - radius, d + radius]))^beta` along an axis (input 5, the
/// last by default), over FLOAT32 and FLOAT16 (computed in float). Input rank <= 4.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "nnhal/kernels/common/axis.hpp"
#include "nnhal/kernels/common/elementwise.hpp"
#include "nnhal/ops/local_response_normalization.hpp"

namespace nnhal::kernels::local_response_normalization {

/// The axis input, -1 when it is left out.
inline std::int32_t axis_of(const NodeIO& io) noexcept {
  return io.input_count() > 5 ? io.scalar<OperandType::INT32>(5) : -1;
}

/// Output shape = input shape; rank <= 4 and the axis in range.
inline Status infer(const NodeIO& io) {
  NNHAL_TRY(elementwise::infer_same_shape(io, "LOCAL_RESPONSE_NORMALIZATION", 4));
  if (auto a = resolve_axis(axis_of(io), io.input(0).dims.rank(), "LOCAL_RESPONSE_NORMALIZATION"); !a)
    return std::move(a.error());
  return {};
}

template <OperandType T>
Status kernel(const NodeIO& io) {
  const auto in = io.in<T>(0);
  const auto out = io.out<T>(0);
  auto axis = resolve_axis(axis_of(io), in.dims().rank(), "LOCAL_RESPONSE_NORMALIZATION");
  if (!axis) return std::move(axis.error());
  const std::int64_t radius = io.scalar<OperandType::INT32>(1);
  const float bias = elementwise::float_scalar<T>(io, 2);
  const float alpha = elementwise::float_scalar<T>(io, 3);
  const float beta = elementwise::float_scalar<T>(io, 4);
  const AxisSplit s = split_at(in.dims(), *axis);
  const auto depth = static_cast<std::int64_t>(s.axis);
  for (std::size_t o = 0; o < s.outer; ++o) {
    for (std::size_t i = 0; i < s.inner; ++i) {
      const std::size_t base = o * s.axis * s.inner + i;
      for (std::int64_t c = 0; c < depth; ++c) {
        // The window [c - radius, c + radius], both ends included (TFLite's optimized kernel).
        const std::int64_t begin = std::max<std::int64_t>(0, c - radius);
        const std::int64_t end = std::min<std::int64_t>(depth, c + radius + 1);
        float sum = 0.0f;
        for (std::int64_t d = begin; d < end; ++d) {
          const auto v = static_cast<float>(in[base + static_cast<std::size_t>(d) * s.inner]);
          sum += v * v;
        }
        const float multiplier = std::pow(bias + alpha * sum, -beta);
        const std::size_t at = base + static_cast<std::size_t>(c) * s.inner;
        const float r = static_cast<float>(in[at]) * multiplier;
        if constexpr (T == OperandType::TENSOR_FLOAT16)
          out[at] = Half(r);
        else
          out[at] = r;
      }
    }
  }
  return {};
}

/// LOCAL_RESPONSE_NORMALIZATION's kernels.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16};

  static Status infer(const NodeIO& io) { return local_response_normalization::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &kernel<T>;
  }
};

}  // namespace nnhal::kernels::local_response_normalization

namespace nnhal {

template <>
struct Kernels<OperationType::LOCAL_RESPONSE_NORMALIZATION> : kernels::local_response_normalization::Family {};
static_assert(kernels_cover_row<OperationType::LOCAL_RESPONSE_NORMALIZATION>());

}  // namespace nnhal
