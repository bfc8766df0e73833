#pragma once
/// \file
/// REDUCE_MAX (77). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// REDUCE_MAX in the operation table.
struct ReduceMax : OperationDescriptor<OperationType::REDUCE_MAX> {
  static constexpr OperationInfo info{OperationType::REDUCE_MAX, "REDUCE_MAX", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
