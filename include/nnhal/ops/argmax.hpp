#pragma once
/// \file
/// ARGMAX (39). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// ARGMAX in the operation table.
struct Argmax : OperationDescriptor<OperationType::ARGMAX> {
  static constexpr OperationInfo info{OperationType::ARGMAX, "ARGMAX", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
