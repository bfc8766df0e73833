#pragma once
/// \file
/// EQUAL (48). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// EQUAL in the operation table.
struct Equal : OperationDescriptor<OperationType::EQUAL> {
  static constexpr OperationInfo info{OperationType::EQUAL, "EQUAL", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
