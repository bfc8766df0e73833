#pragma once
/// \file
/// PAD_V2 (69). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// PAD_V2 in the operation table.
struct PadV2 : OperationDescriptor<OperationType::PAD_V2> {
  static constexpr OperationInfo info{OperationType::PAD_V2, "PAD_V2", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
