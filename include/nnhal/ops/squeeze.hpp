#pragma once
/// \file
/// SQUEEZE (34). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// SQUEEZE in the operation table.
struct Squeeze : OperationDescriptor<OperationType::SQUEEZE> {
  static constexpr OperationInfo info{OperationType::SQUEEZE, "SQUEEZE", HalVersion::V1_1, {}, {}, {}};
};

}  // namespace nnhal::ops
