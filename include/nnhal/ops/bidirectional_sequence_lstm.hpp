#pragma once
/// \file
/// BIDIRECTIONAL_SEQUENCE_LSTM (42). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// BIDIRECTIONAL_SEQUENCE_LSTM in the operation table.
struct BidirectionalSequenceLstm : OperationDescriptor<OperationType::BIDIRECTIONAL_SEQUENCE_LSTM> {
  static constexpr OperationInfo info{OperationType::BIDIRECTIONAL_SEQUENCE_LSTM, "BIDIRECTIONAL_SEQUENCE_LSTM", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
