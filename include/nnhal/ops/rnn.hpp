#pragma once
/// \file
/// RNN (24). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// RNN in the operation table.
struct Rnn : OperationDescriptor<OperationType::RNN> {
  static constexpr OperationInfo info{OperationType::RNN, "RNN", HalVersion::V1_0, {}, {}, {}};
};

}  // namespace nnhal::ops
