#pragma once
/// \file
/// NEG (67). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// NEG in the operation table.
struct Neg : OperationDescriptor<OperationType::NEG> {
  static constexpr OperationInfo info{OperationType::NEG, "NEG", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
