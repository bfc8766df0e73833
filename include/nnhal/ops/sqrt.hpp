#pragma once
/// \file
/// SQRT (88). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// SQRT in the operation table.
struct Sqrt : OperationDescriptor<OperationType::SQRT> {
  static constexpr OperationInfo info{OperationType::SQRT, "SQRT", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
