#pragma once
/// \file
/// RELU1 (20). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// RELU1 in the operation table.
struct Relu1 : OperationDescriptor<OperationType::RELU1> {
  static constexpr OperationInfo info{OperationType::RELU1, "RELU1", HalVersion::V1_0, {}, {}, {}};
};

}  // namespace nnhal::ops
