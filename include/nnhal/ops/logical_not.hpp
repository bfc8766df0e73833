#pragma once
/// \file
/// LOGICAL_NOT (62). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// LOGICAL_NOT in the operation table.
struct LogicalNot : OperationDescriptor<OperationType::LOGICAL_NOT> {
  static constexpr OperationInfo info{OperationType::LOGICAL_NOT, "LOGICAL_NOT", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
