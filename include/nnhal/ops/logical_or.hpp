#pragma once
/// \file
/// LOGICAL_OR (63). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// LOGICAL_OR in the operation table.
struct LogicalOr : OperationDescriptor<OperationType::LOGICAL_OR> {
  static constexpr OperationInfo info{OperationType::LOGICAL_OR, "LOGICAL_OR", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
