#pragma once
/// \file
/// FLOOR (8). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// FLOOR in the operation table.
struct Floor : OperationDescriptor<OperationType::FLOOR> {
  static constexpr OperationInfo info{OperationType::FLOOR, "FLOOR", HalVersion::V1_0, {}, {}, {}};
};

}  // namespace nnhal::ops
