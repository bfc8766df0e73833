#pragma once
/// \file
/// RANDOM_MULTINOMIAL (74). STUB: descriptor not written yet (no signatures, so validation rejects it).

#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

/// RANDOM_MULTINOMIAL in the operation table.
struct RandomMultinomial : OperationDescriptor<OperationType::RANDOM_MULTINOMIAL> {
  static constexpr OperationInfo info{OperationType::RANDOM_MULTINOMIAL, "RANDOM_MULTINOMIAL", HalVersion::V1_2, {}, {}, {}};
};

}  // namespace nnhal::ops
