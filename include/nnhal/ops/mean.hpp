#pragma once
/// \file
/// MEAN (31). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// MEAN in the operation table.
struct Mean : OperationDescriptor<OperationType::MEAN> {
  static constexpr OperationInfo info{OperationType::MEAN, "MEAN", HalVersion::V1_1, {}, {}, {}};
};

}  // namespace nnhal::ops
