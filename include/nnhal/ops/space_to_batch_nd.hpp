#pragma once
/// \file
/// SPACE_TO_BATCH_ND (33). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// SPACE_TO_BATCH_ND in the operation table.
struct SpaceToBatchNd : OperationDescriptor<OperationType::SPACE_TO_BATCH_ND> {
  static constexpr OperationInfo info{OperationType::SPACE_TO_BATCH_ND, "SPACE_TO_BATCH_ND", HalVersion::V1_1, {}, {}, {}};
};

}  // namespace nnhal::ops
