#pragma once
/// \file
/// RESHAPE (22). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// RESHAPE in the operation table.
struct Reshape : OperationDescriptor<OperationType::RESHAPE> {
  static constexpr OperationInfo info{OperationType::RESHAPE, "RESHAPE", HalVersion::V1_0, {}, {}, {}};
};

}  // namespace nnhal::ops
