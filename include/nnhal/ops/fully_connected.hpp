#pragma once
/// \file
/// FULLY_CONNECTED (9). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// FULLY_CONNECTED in the operation table.
struct FullyConnected : OperationDescriptor<OperationType::FULLY_CONNECTED> {
  static constexpr OperationInfo info{OperationType::FULLY_CONNECTED, "FULLY_CONNECTED", HalVersion::V1_0, {}, {}, {}};
};

}  // namespace nnhal::ops
