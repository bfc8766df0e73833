#pragma once
/// \file
/// HEATMAP_MAX_KEYPOINT (56). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// HEATMAP_MAX_KEYPOINT in the operation table.
struct HeatmapMaxKeypoint : OperationDescriptor<OperationType::HEATMAP_MAX_KEYPOINT> {
  static constexpr OperationInfo info{OperationType::HEATMAP_MAX_KEYPOINT, "HEATMAP_MAX_KEYPOINT", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
