#pragma once
/// \file
/// LOG_SOFTMAX kernels (the row: nnhal/ops/log_softmax.hpp): `(x - max) * beta - log(sum(exp((x -
/// max) * beta)))` along the axis of input 2, over FLOAT32 and FLOAT16 (computed in float, each
/// exponential and the logarithm in double as the reference does).

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>

#include "nnhal/kernels/common/axis.hpp"
#include "nnhal/kernels/common/elementwise.hpp"
#include "nnhal/ops/log_softmax.hpp"

namespace nnhal::kernels::log_softmax {

/// Output shape = input shape; the axis must be in range.
inline Status infer(const NodeIO& io) {
  NNHAL_TRY(elementwise::infer_same_shape(io, "LOG_SOFTMAX"));
  if (auto a = resolve_axis(io.scalar<OperandType::INT32>(2), io.input(0).dims.rank(), "LOG_SOFTMAX"); !a)
    return std::move(a.error());
  return {};
}

template <OperandType T>
Status kernel(const NodeIO& io) {
  const auto in = io.in<T>(0);
  const auto out = io.out<T>(0);
  auto axis = resolve_axis(io.scalar<OperandType::INT32>(2), in.dims().rank(), "LOG_SOFTMAX");
  if (!axis) return std::move(axis.error());
  const float beta = elementwise::float_scalar<T>(io, 1);
  const AxisSplit s = split_at(in.dims(), *axis);
  for (std::size_t o = 0; o < s.outer; ++o) {
    for (std::size_t i = 0; i < s.inner; ++i) {
      const std::size_t base = o * s.axis * s.inner + i;
      float max = static_cast<float>(in[base]);
      for (std::size_t a = 1; a < s.axis; ++a) max = std::max(max, static_cast<float>(in[base + a * s.inner]));
      float sum = 0.0f;
      for (std::size_t a = 0; a < s.axis; ++a)
        sum += static_cast<float>(std::exp(static_cast<double>((static_cast<float>(in[base + a * s.inner]) - max) * beta)));
      const auto log_sum = static_cast<float>(std::log(static_cast<double>(sum)));
      for (std::size_t a = 0; a < s.axis; ++a) {
        const float r = (static_cast<float>(in[base + a * s.inner]) - max) * beta - log_sum;
        if constexpr (T == OperandType::TENSOR_FLOAT16)
          out[base + a * s.inner] = Half(r);
        else
          out[base + a * s.inner] = r;
      }
    }
  }
  return {};
}

/// LOG_SOFTMAX's kernels.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16};

  static Status infer(const NodeIO& io) { return log_softmax::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &kernel<T>;
  }
};

}  // namespace nnhal::kernels::log_softmax

namespace nnhal {

template <>
struct Kernels<OperationType::LOG_SOFTMAX> : kernels::log_softmax::Family {};
static_assert(kernels_cover_row<OperationType::LOG_SOFTMAX>());

}  // namespace nnhal
