#pragma once
/// \file
/// SELECT (84). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// SELECT in the operation table.
struct Select : OperationDescriptor<OperationType::SELECT> {
  static constexpr OperationInfo info{OperationType::SELECT, "SELECT", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
