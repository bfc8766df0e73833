#pragma once
/// \file
/// SVDF (27). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// SVDF in the operation table.
struct Svdf : OperationDescriptor<OperationType::SVDF> {
  static constexpr OperationInfo info{OperationType::SVDF, "SVDF", HalVersion::V1_0, {}, {}, {}};
};

}  // namespace nnhal::ops
