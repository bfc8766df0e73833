#pragma once
/// \file
/// DEQUANTIZE (6). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// DEQUANTIZE in the operation table.
struct Dequantize : OperationDescriptor<OperationType::DEQUANTIZE> {
  static constexpr OperationInfo info{OperationType::DEQUANTIZE, "DEQUANTIZE", HalVersion::V1_0, {}, {}, {}};
};

}  // namespace nnhal::ops
