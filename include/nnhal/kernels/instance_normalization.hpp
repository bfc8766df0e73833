#pragma once
/// \file
/// INSTANCE_NORMALIZATION kernels (the row: nnhal/ops/instance_normalization.hpp): for each batch
/// and channel of a 4-D tensor, `(x - mean) * gamma / sqrt(variance + epsilon) + beta` over the
/// spatial positions, in NHWC or NCHW (input 4), over FLOAT32 and FLOAT16 (computed in float;
/// the reference accumulates FLOAT16 in half precision, float is at least as accurate).

#include <array>
#include <cmath>
#include <cstddef>

#include "nnhal/kernels/common/elementwise.hpp"
#include "nnhal/ops/instance_normalization.hpp"

namespace nnhal::kernels::instance_normalization {

/// Output shape = input shape, which must have rank 4.
inline Status infer(const NodeIO& io) {
  if (io.input(0).dims.rank() != 4)
    return NNHAL_INVALID("INSTANCE_NORMALIZATION input 0 has rank %zu, it must be 4", io.input(0).dims.rank());
  return elementwise::infer_same_shape(io, "INSTANCE_NORMALIZATION");
}

template <OperandType T>
Status kernel(const NodeIO& io) {
  const auto in = io.in<T>(0);
  const auto out = io.out<T>(0);
  const float gamma = elementwise::float_scalar<T>(io, 1);
  const float beta = elementwise::float_scalar<T>(io, 2);
  const float epsilon = elementwise::float_scalar<T>(io, 3);
  const bool nchw = io.scalar<OperandType::BOOL>(4) != 0;
  const Dims& d = in.dims();
  const std::size_t batches = d[0];
  const std::size_t channels = nchw ? d[1] : d[3];
  const std::size_t spatial = nchw ? std::size_t{d[2]} * d[3] : std::size_t{d[1]} * d[2];
  // Element (b, position p, channel c) in either layout.
  const std::size_t channel_stride = nchw ? spatial : 1;
  const std::size_t position_stride = nchw ? 1 : channels;
  for (std::size_t b = 0; b < batches; ++b) {
    for (std::size_t c = 0; c < channels; ++c) {
      const std::size_t base = b * channels * spatial + c * channel_stride;
      float mean = 0.0f;
      for (std::size_t p = 0; p < spatial; ++p) mean += static_cast<float>(in[base + p * position_stride]);
      mean /= static_cast<float>(spatial);
      float variance = 0.0f;
      for (std::size_t p = 0; p < spatial; ++p) {
        const float v = static_cast<float>(in[base + p * position_stride]) - mean;
        variance += v * v;
      }
      const float sigma = std::sqrt(variance / static_cast<float>(spatial) + epsilon);
      for (std::size_t p = 0; p < spatial; ++p) {
        const std::size_t at = base + p * position_stride;
        const float r = (static_cast<float>(in[at]) - mean) * gamma / sigma + beta;
        if constexpr (T == OperandType::TENSOR_FLOAT16)
          out[at] = Half(r);
        else
          out[at] = r;
      }
    }
  }
  return {};
}

/// INSTANCE_NORMALIZATION's kernels.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16};

  static Status infer(const NodeIO& io) { return instance_normalization::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &kernel<T>;
  }
};

}  // namespace nnhal::kernels::instance_normalization

namespace nnhal {

template <>
struct Kernels<OperationType::INSTANCE_NORMALIZATION> : kernels::instance_normalization::Family {};
static_assert(kernels_cover_row<OperationType::INSTANCE_NORMALIZATION>());

}  // namespace nnhal
