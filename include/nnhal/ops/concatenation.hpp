#pragma once
/// \file
/// CONCATENATION (2). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// CONCATENATION in the operation table.
struct Concatenation : OperationDescriptor<OperationType::CONCATENATION> {
  static constexpr OperationInfo info{OperationType::CONCATENATION, "CONCATENATION", HalVersion::V1_0, {}, {}, {}};
};

}  // namespace nnhal::ops
