#pragma once
/// \file
/// ARGMIN (40). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// ARGMIN in the operation table.
struct Argmin : OperationDescriptor<OperationType::ARGMIN> {
  static constexpr OperationInfo info{OperationType::ARGMIN, "ARGMIN", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
