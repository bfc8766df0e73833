#pragma once
/// \file
/// TOPK_V2 (90). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// TOPK_V2 in the operation table.
struct TopkV2 : OperationDescriptor<OperationType::TOPK_V2> {
  static constexpr OperationInfo info{OperationType::TOPK_V2, "TOPK_V2", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
