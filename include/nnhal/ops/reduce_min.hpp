#pragma once
/// \file
/// REDUCE_MIN (78). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// REDUCE_MIN in the operation table.
struct ReduceMin : OperationDescriptor<OperationType::REDUCE_MIN> {
  static constexpr OperationInfo info{OperationType::REDUCE_MIN, "REDUCE_MIN", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
