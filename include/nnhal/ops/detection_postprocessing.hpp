#pragma once
/// \file
/// DETECTION_POSTPROCESSING (47). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// DETECTION_POSTPROCESSING in the operation table.
struct DetectionPostprocessing : OperationDescriptor<OperationType::DETECTION_POSTPROCESSING> {
  static constexpr OperationInfo info{OperationType::DETECTION_POSTPROCESSING, "DETECTION_POSTPROCESSING", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
