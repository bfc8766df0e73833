#pragma once
/// \file
/// RESIZE_BILINEAR (23). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// RESIZE_BILINEAR in the operation table.
struct ResizeBilinear : OperationDescriptor<OperationType::RESIZE_BILINEAR> {
  static constexpr OperationInfo info{OperationType::RESIZE_BILINEAR, "RESIZE_BILINEAR", HalVersion::V1_0, {}, {}, {}};
};

}  // namespace nnhal::ops
