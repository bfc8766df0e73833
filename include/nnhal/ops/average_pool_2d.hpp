#pragma once
/// \file
/// AVERAGE_POOL_2D (1). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// AVERAGE_POOL_2D in the operation table.
struct AveragePool2D : OperationDescriptor<OperationType::AVERAGE_POOL_2D> {
  static constexpr OperationInfo info{OperationType::AVERAGE_POOL_2D, "AVERAGE_POOL_2D", HalVersion::V1_0, {}, {}, {}};
};

}  // namespace nnhal::ops
