#pragma once
/// \file
/// RSQRT (83). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// RSQRT in the operation table.
struct Rsqrt : OperationDescriptor<OperationType::RSQRT> {
  static constexpr OperationInfo info{OperationType::RSQRT, "RSQRT", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
