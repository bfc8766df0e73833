#pragma once
/// \file
/// ABS (38). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// ABS in the operation table.
struct Abs : OperationDescriptor<OperationType::ABS> {
  static constexpr OperationInfo info{OperationType::ABS, "ABS", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
