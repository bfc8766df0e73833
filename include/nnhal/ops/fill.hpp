#pragma once
/// \file
/// FILL (100). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// FILL in the operation table.
struct Fill : OperationDescriptor<OperationType::FILL> {
  static constexpr OperationInfo info{OperationType::FILL, "FILL", HalVersion::V1_3, {}, {}, {}};
};

}  // namespace nnhal::ops
