#pragma once
/// \file
/// LESS_EQUAL (59). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// LESS_EQUAL in the operation table.
struct LessEqual : OperationDescriptor<OperationType::LESS_EQUAL> {
  static constexpr OperationInfo info{OperationType::LESS_EQUAL, "LESS_EQUAL", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
