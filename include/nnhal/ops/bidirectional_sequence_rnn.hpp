#pragma once
/// \file
/// BIDIRECTIONAL_SEQUENCE_RNN (43). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// BIDIRECTIONAL_SEQUENCE_RNN in the operation table.
struct BidirectionalSequenceRnn : OperationDescriptor<OperationType::BIDIRECTIONAL_SEQUENCE_RNN> {
  static constexpr OperationInfo info{OperationType::BIDIRECTIONAL_SEQUENCE_RNN, "BIDIRECTIONAL_SEQUENCE_RNN", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
