#pragma once
/// \file
/// MUL (18). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// MUL in the operation table.
struct Mul : OperationDescriptor<OperationType::MUL> {
  static constexpr OperationInfo info{OperationType::MUL, "MUL", HalVersion::V1_0, {}, {}, {}};
};

}  // namespace nnhal::ops
