#pragma once
/// \file
/// SIN (85). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// SIN in the operation table.
struct Sin : OperationDescriptor<OperationType::SIN> {
  static constexpr OperationInfo info{OperationType::SIN, "SIN", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
