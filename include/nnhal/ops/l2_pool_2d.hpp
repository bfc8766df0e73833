#pragma once
/// \file
/// L2_POOL_2D (12): square root of the mean of squares over each filter window of a 4-D tensor,
/// with explicit or implicit padding and a fused activation. Float types only.

#include "nnhal/ops/common/pool_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace l2_pool_2d {
inline constexpr auto& kInputs = pool::kInputs;
inline constexpr auto& kOutputs = pool::kOutputs;
/// F32 1.0; F16 1.2 (no quantized types).
inline constexpr auto kSignatures = pool::signatures(v1_0::kFloatTypes);
}  // namespace l2_pool_2d

}  // namespace nnhal::ops

namespace nnhal {

/// L2_POOL_2D in the operation table.
template <>
struct Row<OperationType::L2_POOL_2D> {
  static constexpr OperationInfo info = make_row(OperationType::L2_POOL_2D, {
      .inputs = ops::l2_pool_2d::kInputs,
      .outputs = ops::l2_pool_2d::kOutputs,
      .signatures = ops::l2_pool_2d::kSignatures,
      .flags = kOpAllowsZeroSized,
      .implicit_inputs = ops::pool::kImplicitInputs,
  });
};

}  // namespace nnhal
