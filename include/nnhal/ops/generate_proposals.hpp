#pragma once
/// \file
/// GENERATE_PROPOSALS (52). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// GENERATE_PROPOSALS in the operation table.
struct GenerateProposals : OperationDescriptor<OperationType::GENERATE_PROPOSALS> {
  static constexpr OperationInfo info{OperationType::GENERATE_PROPOSALS, "GENERATE_PROPOSALS", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
