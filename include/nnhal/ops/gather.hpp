#pragma once
/// \file
/// GATHER (51). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// GATHER in the operation table.
struct Gather : OperationDescriptor<OperationType::GATHER> {
  static constexpr OperationInfo info{OperationType::GATHER, "GATHER", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
