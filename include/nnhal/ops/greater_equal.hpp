#pragma once
/// \file
/// GREATER_EQUAL (54). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// GREATER_EQUAL in the operation table.
struct GreaterEqual : OperationDescriptor<OperationType::GREATER_EQUAL> {
  static constexpr OperationInfo info{OperationType::GREATER_EQUAL, "GREATER_EQUAL", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
