#pragma once
/// \file
/// LOGICAL_AND (61). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// LOGICAL_AND in the operation table.
struct LogicalAnd : OperationDescriptor<OperationType::LOGICAL_AND> {
  static constexpr OperationInfo info{OperationType::LOGICAL_AND, "LOGICAL_AND", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
