#pragma once
/// \file
/// LOCAL_RESPONSE_NORMALIZATION (13). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// LOCAL_RESPONSE_NORMALIZATION in the operation table.
struct LocalResponseNormalization : OperationDescriptor<OperationType::LOCAL_RESPONSE_NORMALIZATION> {
  static constexpr OperationInfo info{OperationType::LOCAL_RESPONSE_NORMALIZATION, "LOCAL_RESPONSE_NORMALIZATION", HalVersion::V1_0, {}, {}, {}};
};

}  // namespace nnhal::ops
