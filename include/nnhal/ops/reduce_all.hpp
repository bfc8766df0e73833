#pragma once
/// \file
/// REDUCE_ALL (75). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// REDUCE_ALL in the operation table.
struct ReduceAll : OperationDescriptor<OperationType::REDUCE_ALL> {
  static constexpr OperationInfo info{OperationType::REDUCE_ALL, "REDUCE_ALL", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
