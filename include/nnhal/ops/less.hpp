#pragma once
/// \file
/// LESS (58). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// LESS in the operation table.
struct Less : OperationDescriptor<OperationType::LESS> {
  static constexpr OperationInfo info{OperationType::LESS, "LESS", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
