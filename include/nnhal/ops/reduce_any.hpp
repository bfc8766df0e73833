#pragma once
/// \file
/// REDUCE_ANY (76). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// REDUCE_ANY in the operation table.
struct ReduceAny : OperationDescriptor<OperationType::REDUCE_ANY> {
  static constexpr OperationInfo info{OperationType::REDUCE_ANY, "REDUCE_ANY", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
