#pragma once
/// \file
/// MAX_POOL_2D (17). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// MAX_POOL_2D in the operation table.
struct MaxPool2D : OperationDescriptor<OperationType::MAX_POOL_2D> {
  static constexpr OperationInfo info{OperationType::MAX_POOL_2D, "MAX_POOL_2D", HalVersion::V1_0, {}, {}, {}};
};

}  // namespace nnhal::ops
