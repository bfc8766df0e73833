#pragma once
/// \file
/// ROI_ALIGN (81). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// ROI_ALIGN in the operation table.
struct RoiAlign : OperationDescriptor<OperationType::ROI_ALIGN> {
  static constexpr OperationInfo info{OperationType::ROI_ALIGN, "ROI_ALIGN", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
