#pragma once
/// \file
/// INSTANCE_NORMALIZATION (57). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// INSTANCE_NORMALIZATION in the operation table.
struct InstanceNormalization : OperationDescriptor<OperationType::INSTANCE_NORMALIZATION> {
  static constexpr OperationInfo info{OperationType::INSTANCE_NORMALIZATION, "INSTANCE_NORMALIZATION", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
