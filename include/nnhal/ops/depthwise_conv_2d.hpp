#pragma once
/// \file
/// DEPTHWISE_CONV_2D (4). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// DEPTHWISE_CONV_2D in the operation table.
struct DepthwiseConv2D : OperationDescriptor<OperationType::DEPTHWISE_CONV_2D> {
  static constexpr OperationInfo info{OperationType::DEPTHWISE_CONV_2D, "DEPTHWISE_CONV_2D", HalVersion::V1_0, {}, {}, {}};
};

}  // namespace nnhal::ops
