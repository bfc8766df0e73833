#pragma once
/// \file
/// TANH (28). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// TANH in the operation table.
struct Tanh : OperationDescriptor<OperationType::TANH> {
  static constexpr OperationInfo info{OperationType::TANH, "TANH", HalVersion::V1_0, {}, {}, {}};
};

}  // namespace nnhal::ops
