#pragma once
/// \file
/// RELU (19). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// RELU in the operation table.
struct Relu : OperationDescriptor<OperationType::RELU> {
  static constexpr OperationInfo info{OperationType::RELU, "RELU", HalVersion::V1_0, {}, {}, {}};
};

}  // namespace nnhal::ops
