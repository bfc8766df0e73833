#pragma once
/// \file
/// BOX_WITH_NMS_LIMIT (44). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// BOX_WITH_NMS_LIMIT in the operation table.
struct BoxWithNmsLimit : OperationDescriptor<OperationType::BOX_WITH_NMS_LIMIT> {
  static constexpr OperationInfo info{OperationType::BOX_WITH_NMS_LIMIT, "BOX_WITH_NMS_LIMIT", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
