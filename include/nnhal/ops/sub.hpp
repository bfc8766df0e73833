#pragma once
/// \file
/// SUB (36). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// SUB in the operation table.
struct Sub : OperationDescriptor<OperationType::SUB> {
  static constexpr OperationInfo info{OperationType::SUB, "SUB", HalVersion::V1_1, {}, {}, {}};
};

}  // namespace nnhal::ops
