#pragma once
/// \file
/// HARD_SWISH (99). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// HARD_SWISH in the operation table.
struct HardSwish : OperationDescriptor<OperationType::HARD_SWISH> {
  static constexpr OperationInfo info{OperationType::HARD_SWISH, "HARD_SWISH", HalVersion::V1_3, {}, {}, {}};
};

}  // namespace nnhal::ops
