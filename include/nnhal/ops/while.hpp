#pragma once
/// \file
/// WHILE (97). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// WHILE in the operation table.
struct While : OperationDescriptor<OperationType::WHILE> {
  static constexpr OperationInfo info{OperationType::WHILE, "WHILE", HalVersion::V1_3, {}, {}, {}};
};

}  // namespace nnhal::ops
