#pragma once
/// \file
/// BATCH_TO_SPACE_ND (29). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// BATCH_TO_SPACE_ND in the operation table.
struct BatchToSpaceNd : OperationDescriptor<OperationType::BATCH_TO_SPACE_ND> {
  static constexpr OperationInfo info{OperationType::BATCH_TO_SPACE_ND, "BATCH_TO_SPACE_ND", HalVersion::V1_1, {}, {}, {}};
};

}  // namespace nnhal::ops
