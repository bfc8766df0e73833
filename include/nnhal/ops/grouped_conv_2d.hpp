#pragma once
/// \file
/// GROUPED_CONV_2D (55). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// GROUPED_CONV_2D in the operation table.
struct GroupedConv2D : OperationDescriptor<OperationType::GROUPED_CONV_2D> {
  static constexpr OperationInfo info{OperationType::GROUPED_CONV_2D, "GROUPED_CONV_2D", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
