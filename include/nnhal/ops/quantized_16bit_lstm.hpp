#pragma once
/// \file
/// QUANTIZED_16BIT_LSTM (73). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// QUANTIZED_16BIT_LSTM in the operation table.
struct Quantized16bitLstm : OperationDescriptor<OperationType::QUANTIZED_16BIT_LSTM> {
  static constexpr OperationInfo info{OperationType::QUANTIZED_16BIT_LSTM, "QUANTIZED_16BIT_LSTM", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
