#pragma once
/// \file
/// LOG_SOFTMAX (64). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// LOG_SOFTMAX in the operation table.
struct LogSoftmax : OperationDescriptor<OperationType::LOG_SOFTMAX> {
  static constexpr OperationInfo info{OperationType::LOG_SOFTMAX, "LOG_SOFTMAX", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
