#pragma once
/// \file
/// DIV (30). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// DIV in the operation table.
struct Div : OperationDescriptor<OperationType::DIV> {
  static constexpr OperationInfo info{OperationType::DIV, "DIV", HalVersion::V1_1, {}, {}, {}};
};

}  // namespace nnhal::ops
