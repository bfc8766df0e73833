#pragma once
/// \file
/// PRELU (71). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// PRELU in the operation table.
struct Prelu : OperationDescriptor<OperationType::PRELU> {
  static constexpr OperationInfo info{OperationType::PRELU, "PRELU", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
