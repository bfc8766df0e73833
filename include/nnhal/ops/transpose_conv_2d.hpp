#pragma once
/// \file
/// TRANSPOSE_CONV_2D (91). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// TRANSPOSE_CONV_2D in the operation table.
struct TransposeConv2D : OperationDescriptor<OperationType::TRANSPOSE_CONV_2D> {
  static constexpr OperationInfo info{OperationType::TRANSPOSE_CONV_2D, "TRANSPOSE_CONV_2D", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
