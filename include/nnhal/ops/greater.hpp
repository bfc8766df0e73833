#pragma once
/// \file
/// GREATER (53). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// GREATER in the operation table.
struct Greater : OperationDescriptor<OperationType::GREATER> {
  static constexpr OperationInfo info{OperationType::GREATER, "GREATER", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
