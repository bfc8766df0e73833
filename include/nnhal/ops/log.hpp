#pragma once
/// \file
/// LOG (60). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// LOG in the operation table.
struct Log : OperationDescriptor<OperationType::LOG> {
  static constexpr OperationInfo info{OperationType::LOG, "LOG", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
