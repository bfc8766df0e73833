#pragma once
/// \file
/// SPACE_TO_DEPTH (26). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// SPACE_TO_DEPTH in the operation table.
struct SpaceToDepth : OperationDescriptor<OperationType::SPACE_TO_DEPTH> {
  static constexpr OperationInfo info{OperationType::SPACE_TO_DEPTH, "SPACE_TO_DEPTH", HalVersion::V1_0, {}, {}, {}};
};

}  // namespace nnhal::ops
