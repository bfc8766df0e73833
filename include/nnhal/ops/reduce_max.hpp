#pragma once
/// \file
/// REDUCE_MAX (77): maximum over the given axes.

#include "nnhal/ops/common/reduce_signatures.hpp"
#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

namespace reduce_max {
inline constexpr auto& kInputs = reduce::kInputs;
inline constexpr auto& kOutputs = reduce::kOutputs;
inline constexpr auto& kSignatures = reduce::kMaxMinSignatures;
inline constexpr ValidateFn validate = &reduce::validate;
}  // namespace reduce_max

/// REDUCE_MAX in the operation table.
struct ReduceMax : OperationDescriptor<OperationType::REDUCE_MAX> {
  static constexpr OperationInfo info{OperationType::REDUCE_MAX, "REDUCE_MAX",
                                      HalVersion::V1_2,          reduce_max::kInputs,
                                      reduce_max::kOutputs,      reduce_max::kSignatures,
                                      reduce_max::validate};
};

}  // namespace nnhal::ops
