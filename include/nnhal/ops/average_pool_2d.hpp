#pragma once
/// \file
/// AVERAGE_POOL_2D (1): average over each filter window of a 4-D tensor, counting only the
/// valid (unpadded) elements, with explicit or implicit padding and a fused activation.

#include "nnhal/ops/common/pool_signatures.hpp"
#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

namespace average_pool_2d {
inline constexpr auto& kInputs = pool::kInputs;
inline constexpr auto& kOutputs = pool::kOutputs;
/// F32, QA8 1.0; F16 1.2; QAS8 1.3. Rank 4, strides, filter and paddings are runtime checks.
inline constexpr auto kSignatures = pool::signatures(v1_0::float_quant_types(HalVersion::V1_0));
}  // namespace average_pool_2d

/// AVERAGE_POOL_2D in the operation table.
struct AveragePool2D : OperationDescriptor<OperationType::AVERAGE_POOL_2D> {
  static constexpr OperationInfo info{OperationType::AVERAGE_POOL_2D, "AVERAGE_POOL_2D",
                                      HalVersion::V1_0,               average_pool_2d::kInputs,
                                      average_pool_2d::kOutputs,      average_pool_2d::kSignatures,
                                      nullptr,                        nullptr,
                                      kOpAllowsZeroSized};
};

}  // namespace nnhal::ops
