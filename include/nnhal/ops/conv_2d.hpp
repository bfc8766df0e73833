#pragma once
/// \file
/// CONV_2D (3). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// CONV_2D in the operation table.
struct Conv2D : OperationDescriptor<OperationType::CONV_2D> {
  static constexpr OperationInfo info{OperationType::CONV_2D, "CONV_2D", HalVersion::V1_0, {}, {}, {}};
};

}  // namespace nnhal::ops
