#pragma once
/// \file
/// ROI_POOLING (82). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// ROI_POOLING in the operation table.
struct RoiPooling : OperationDescriptor<OperationType::ROI_POOLING> {
  static constexpr OperationInfo info{OperationType::ROI_POOLING, "ROI_POOLING", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
