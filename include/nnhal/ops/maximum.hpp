#pragma once
/// \file
/// MAXIMUM (65). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// MAXIMUM in the operation table.
struct Maximum : OperationDescriptor<OperationType::MAXIMUM> {
  static constexpr OperationInfo info{OperationType::MAXIMUM, "MAXIMUM", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
