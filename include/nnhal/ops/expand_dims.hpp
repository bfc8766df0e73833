#pragma once
/// \file
/// EXPAND_DIMS (50). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// EXPAND_DIMS in the operation table.
struct ExpandDims : OperationDescriptor<OperationType::EXPAND_DIMS> {
  static constexpr OperationInfo info{OperationType::EXPAND_DIMS, "EXPAND_DIMS", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
