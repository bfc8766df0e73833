#pragma once
/// \file
/// HASHTABLE_LOOKUP (10). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// HASHTABLE_LOOKUP in the operation table.
struct HashtableLookup : OperationDescriptor<OperationType::HASHTABLE_LOOKUP> {
  static constexpr OperationInfo info{OperationType::HASHTABLE_LOOKUP, "HASHTABLE_LOOKUP", HalVersion::V1_0, {}, {}, {}};
};

}  // namespace nnhal::ops
