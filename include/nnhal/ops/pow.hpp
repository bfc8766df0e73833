#pragma once
/// \file
/// POW (70). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// POW in the operation table.
struct Pow : OperationDescriptor<OperationType::POW> {
  static constexpr OperationInfo info{OperationType::POW, "POW", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
