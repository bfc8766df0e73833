#pragma once
/// \file
/// REDUCE_PROD (79). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// REDUCE_PROD in the operation table.
struct ReduceProd : OperationDescriptor<OperationType::REDUCE_PROD> {
  static constexpr OperationInfo info{OperationType::REDUCE_PROD, "REDUCE_PROD", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
