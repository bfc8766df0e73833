#pragma once
/// \file
/// EXP (49). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// EXP in the operation table.
struct Exp : OperationDescriptor<OperationType::EXP> {
  static constexpr OperationInfo info{OperationType::EXP, "EXP", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
