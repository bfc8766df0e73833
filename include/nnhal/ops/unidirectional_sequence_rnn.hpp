#pragma once
/// \file
/// UNIDIRECTIONAL_SEQUENCE_RNN (93). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// UNIDIRECTIONAL_SEQUENCE_RNN in the operation table.
struct UnidirectionalSequenceRnn : OperationDescriptor<OperationType::UNIDIRECTIONAL_SEQUENCE_RNN> {
  static constexpr OperationInfo info{OperationType::UNIDIRECTIONAL_SEQUENCE_RNN, "UNIDIRECTIONAL_SEQUENCE_RNN", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
