#pragma once
/// \file
/// L2_POOL_2D (12). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// L2_POOL_2D in the operation table.
struct L2Pool2D : OperationDescriptor<OperationType::L2_POOL_2D> {
  static constexpr OperationInfo info{OperationType::L2_POOL_2D, "L2_POOL_2D", HalVersion::V1_0, {}, {}, {}};
};

}  // namespace nnhal::ops
