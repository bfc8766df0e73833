#pragma once
/// \file
/// LSTM (16). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// LSTM in the operation table.
struct Lstm : OperationDescriptor<OperationType::LSTM> {
  static constexpr OperationInfo info{OperationType::LSTM, "LSTM", HalVersion::V1_0, {}, {}, {}};
};

}  // namespace nnhal::ops
