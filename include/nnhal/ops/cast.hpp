#pragma once
/// \file
/// CAST (45). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// CAST in the operation table.
struct Cast : OperationDescriptor<OperationType::CAST> {
  static constexpr OperationInfo info{OperationType::CAST, "CAST", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
