#pragma once
/// \file
/// L2_NORMALIZATION (11). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// L2_NORMALIZATION in the operation table.
struct L2Normalization : OperationDescriptor<OperationType::L2_NORMALIZATION> {
  static constexpr OperationInfo info{OperationType::L2_NORMALIZATION, "L2_NORMALIZATION", HalVersion::V1_0, {}, {}, {}};
};

}  // namespace nnhal::ops
