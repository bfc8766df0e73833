#pragma once
/// \file
/// SOFTMAX (25). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// SOFTMAX in the operation table.
struct Softmax : OperationDescriptor<OperationType::SOFTMAX> {
  static constexpr OperationInfo info{OperationType::SOFTMAX, "SOFTMAX", HalVersion::V1_0, {}, {}, {}};
};

}  // namespace nnhal::ops
