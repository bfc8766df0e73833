#pragma once
/// \file
/// QUANTIZED_LSTM (95). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// QUANTIZED_LSTM in the operation table.
struct QuantizedLstm : OperationDescriptor<OperationType::QUANTIZED_LSTM> {
  static constexpr OperationInfo info{OperationType::QUANTIZED_LSTM, "QUANTIZED_LSTM", HalVersion::V1_3, {}, {}, {}};
};

}  // namespace nnhal::ops
