#pragma once
/// \file
/// MAX_POOL_2D (17): maximum over each filter window of a 4-D tensor, with explicit or implicit
/// padding and a fused activation.

#include "nnhal/ops/common/pool_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace max_pool_2d {
inline constexpr auto& kInputs = pool::kInputs;
inline constexpr auto& kOutputs = pool::kOutputs;
/// F32, QA8 1.0; F16 1.2; QAS8 1.3. Rank 4, strides, filter and paddings are runtime checks.
inline constexpr auto kSignatures = pool::signatures(v1_0::float_quant_types(HalVersion::V1_0));
}  // namespace max_pool_2d

}  // namespace nnhal::ops

namespace nnhal {

/// MAX_POOL_2D in the operation table.
template <>
struct Row<OperationType::MAX_POOL_2D> {
  static constexpr OperationInfo info = make_row(OperationType::MAX_POOL_2D, {
      .inputs = ops::max_pool_2d::kInputs,
      .outputs = ops::max_pool_2d::kOutputs,
      .signatures = ops::max_pool_2d::kSignatures,
      .flags = kOpAllowsZeroSized,
      .implicit_inputs = ops::pool::kImplicitInputs,
  });
};

}  // namespace nnhal
