#pragma once
/// \file
/// STRIDED_SLICE (35). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// STRIDED_SLICE in the operation table.
struct StridedSlice : OperationDescriptor<OperationType::STRIDED_SLICE> {
  static constexpr OperationInfo info{OperationType::STRIDED_SLICE, "STRIDED_SLICE", HalVersion::V1_1, {}, {}, {}};
};

}  // namespace nnhal::ops
