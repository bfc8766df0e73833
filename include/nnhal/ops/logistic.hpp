#pragma once
/// \file
/// LOGISTIC (14). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// LOGISTIC in the operation table.
struct Logistic : OperationDescriptor<OperationType::LOGISTIC> {
  static constexpr OperationInfo info{OperationType::LOGISTIC, "LOGISTIC", HalVersion::V1_0, {}, {}, {}};
};

}  // namespace nnhal::ops
