#pragma once
/// \file
/// NOT_EQUAL (68). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// NOT_EQUAL in the operation table.
struct NotEqual : OperationDescriptor<OperationType::NOT_EQUAL> {
  static constexpr OperationInfo info{OperationType::NOT_EQUAL, "NOT_EQUAL", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
