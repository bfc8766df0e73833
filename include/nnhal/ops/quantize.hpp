#pragma once
/// \file
/// QUANTIZE (72). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// QUANTIZE in the operation table.
struct Quantize : OperationDescriptor<OperationType::QUANTIZE> {
  static constexpr OperationInfo info{OperationType::QUANTIZE, "QUANTIZE", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
