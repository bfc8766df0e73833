#pragma once
/// \file
/// ELU (98). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// ELU in the operation table.
struct Elu : OperationDescriptor<OperationType::ELU> {
  static constexpr OperationInfo info{OperationType::ELU, "ELU", HalVersion::V1_3, {}, {}, {}};
};

}  // namespace nnhal::ops
