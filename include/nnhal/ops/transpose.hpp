#pragma once
/// \file
/// TRANSPOSE (37). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// TRANSPOSE in the operation table.
struct Transpose : OperationDescriptor<OperationType::TRANSPOSE> {
  static constexpr OperationInfo info{OperationType::TRANSPOSE, "TRANSPOSE", HalVersion::V1_1, {}, {}, {}};
};

}  // namespace nnhal::ops
