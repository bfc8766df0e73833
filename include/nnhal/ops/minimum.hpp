#pragma once
/// \file
/// MINIMUM (66). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// MINIMUM in the operation table.
struct Minimum : OperationDescriptor<OperationType::MINIMUM> {
  static constexpr OperationInfo info{OperationType::MINIMUM, "MINIMUM", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
