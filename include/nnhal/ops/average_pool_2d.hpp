#pragma once
/// \file
/// AVERAGE_POOL_2D (1): average over each filter window of a 4-D tensor, counting only the
/// valid (unpadded) elements, with explicit or implicit padding and a fused activation.

#include "nnhal/ops/common/pool_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace average_pool_2d {
inline constexpr auto& kInputs = pool::kInputs;
inline constexpr auto& kOutputs = pool::kOutputs;
/// F32, QA8 1.0; F16 1.2; QAS8 1.3. Rank 4, strides, filter and paddings are runtime checks.
inline constexpr auto kSignatures = pool::signatures(v1_0::float_quant_types(HalVersion::V1_0));
}  // namespace average_pool_2d

}  // namespace nnhal::ops

namespace nnhal {

/// AVERAGE_POOL_2D in the operation table.
template <>
struct Row<OperationType::AVERAGE_POOL_2D> {
  static constexpr OperationInfo info = make_row(OperationType::AVERAGE_POOL_2D, {
      .inputs = ops::average_pool_2d::kInputs,
      .outputs = ops::average_pool_2d::kOutputs,
      .signatures = ops::average_pool_2d::kSignatures,
      .flags = kOpAllowsZeroSized,
      .implicit_inputs = ops::pool::kImplicitInputs,
  });
};

}  // namespace nnhal
