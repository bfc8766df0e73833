#pragma once
/// \file
/// SPLIT (87). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// SPLIT in the operation table.
struct Split : OperationDescriptor<OperationType::SPLIT> {
  static constexpr OperationInfo info{OperationType::SPLIT, "SPLIT", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
