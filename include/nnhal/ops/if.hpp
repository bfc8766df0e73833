#pragma once
/// \file
/// IF (96). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// IF in the operation table.
struct If : OperationDescriptor<OperationType::IF> {
  static constexpr OperationInfo info{OperationType::IF, "IF", HalVersion::V1_3, {}, {}, {}};
};

}  // namespace nnhal::ops
