#pragma once
/// \file
/// AXIS_ALIGNED_BBOX_TRANSFORM (41). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// AXIS_ALIGNED_BBOX_TRANSFORM in the operation table.
struct AxisAlignedBboxTransform : OperationDescriptor<OperationType::AXIS_ALIGNED_BBOX_TRANSFORM> {
  static constexpr OperationInfo info{OperationType::AXIS_ALIGNED_BBOX_TRANSFORM, "AXIS_ALIGNED_BBOX_TRANSFORM", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
