#pragma once
/// \file
/// SLICE (86). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// SLICE in the operation table.
struct Slice : OperationDescriptor<OperationType::SLICE> {
  static constexpr OperationInfo info{OperationType::SLICE, "SLICE", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
