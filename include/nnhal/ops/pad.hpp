#pragma once
/// \file
/// PAD (32). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// PAD in the operation table.
struct Pad : OperationDescriptor<OperationType::PAD> {
  static constexpr OperationInfo info{OperationType::PAD, "PAD", HalVersion::V1_1, {}, {}, {}};
};

}  // namespace nnhal::ops
