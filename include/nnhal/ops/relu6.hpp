#pragma once
/// \file
/// RELU6 (21). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// RELU6 in the operation table.
struct Relu6 : OperationDescriptor<OperationType::RELU6> {
  static constexpr OperationInfo info{OperationType::RELU6, "RELU6", HalVersion::V1_0, {}, {}, {}};
};

}  // namespace nnhal::ops
