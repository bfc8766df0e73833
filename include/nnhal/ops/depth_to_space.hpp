#pragma once
/// \file
/// DEPTH_TO_SPACE (5). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// DEPTH_TO_SPACE in the operation table.
struct DepthToSpace : OperationDescriptor<OperationType::DEPTH_TO_SPACE> {
  static constexpr OperationInfo info{OperationType::DEPTH_TO_SPACE, "DEPTH_TO_SPACE", HalVersion::V1_0, {}, {}, {}};
};

}  // namespace nnhal::ops
