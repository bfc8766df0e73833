#pragma once
/// \file
/// LSH_PROJECTION (15). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// LSH_PROJECTION in the operation table.
struct LshProjection : OperationDescriptor<OperationType::LSH_PROJECTION> {
  static constexpr OperationInfo info{OperationType::LSH_PROJECTION, "LSH_PROJECTION", HalVersion::V1_0, {}, {}, {}};
};

}  // namespace nnhal::ops
