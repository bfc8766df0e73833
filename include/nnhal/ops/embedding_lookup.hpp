#pragma once
/// \file
/// EMBEDDING_LOOKUP (7). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// EMBEDDING_LOOKUP in the operation table.
struct EmbeddingLookup : OperationDescriptor<OperationType::EMBEDDING_LOOKUP> {
  static constexpr OperationInfo info{OperationType::EMBEDDING_LOOKUP, "EMBEDDING_LOOKUP", HalVersion::V1_0, {}, {}, {}};
};

}  // namespace nnhal::ops
