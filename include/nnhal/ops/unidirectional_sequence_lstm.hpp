#pragma once
/// \file
/// UNIDIRECTIONAL_SEQUENCE_LSTM (92). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// UNIDIRECTIONAL_SEQUENCE_LSTM in the operation table.
struct UnidirectionalSequenceLstm : OperationDescriptor<OperationType::UNIDIRECTIONAL_SEQUENCE_LSTM> {
  static constexpr OperationInfo info{OperationType::UNIDIRECTIONAL_SEQUENCE_LSTM, "UNIDIRECTIONAL_SEQUENCE_LSTM", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
