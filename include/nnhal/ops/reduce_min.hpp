#pragma once
/// \file
/// REDUCE_MIN (78): minimum over the given axes.

#include "nnhal/ops/common/reduce_signatures.hpp"
#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

namespace reduce_min {
inline constexpr auto& kInputs = reduce::kInputs;
inline constexpr auto& kOutputs = reduce::kOutputs;
inline constexpr auto& kSignatures = reduce::kMaxMinSignatures;
inline constexpr ValidateFn validate = &reduce::validate;
}  // namespace reduce_min

/// REDUCE_MIN in the operation table.
struct ReduceMin : OperationDescriptor<OperationType::REDUCE_MIN> {
  static constexpr OperationInfo info{OperationType::REDUCE_MIN, "REDUCE_MIN",
                                      HalVersion::V1_2,          reduce_min::kInputs,
                                      reduce_min::kOutputs,      reduce_min::kSignatures,
                                      reduce_min::validate};
};

}  // namespace nnhal::ops
