#pragma once
/// \file
/// REDUCE_SUM (80). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// REDUCE_SUM in the operation table.
struct ReduceSum : OperationDescriptor<OperationType::REDUCE_SUM> {
  static constexpr OperationInfo info{OperationType::REDUCE_SUM, "REDUCE_SUM", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
