#pragma once
/// \file
/// RESIZE_NEAREST_NEIGHBOR (94). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// RESIZE_NEAREST_NEIGHBOR in the operation table.
struct ResizeNearestNeighbor : OperationDescriptor<OperationType::RESIZE_NEAREST_NEIGHBOR> {
  static constexpr OperationInfo info{OperationType::RESIZE_NEAREST_NEIGHBOR, "RESIZE_NEAREST_NEIGHBOR", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
