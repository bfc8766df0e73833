#pragma once
/// \file
/// RANK (101). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// RANK in the operation table.
struct Rank : OperationDescriptor<OperationType::RANK> {
  static constexpr OperationInfo info{OperationType::RANK, "RANK", HalVersion::V1_3, {}, {}, {}};
};

}  // namespace nnhal::ops
