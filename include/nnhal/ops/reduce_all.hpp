#pragma once
/// \file
/// REDUCE_ALL (75): logical AND over the given axes.

#include "nnhal/ops/common/reduce_signatures.hpp"
#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

namespace reduce_all {
inline constexpr auto& kInputs = reduce::kInputs;
inline constexpr auto& kOutputs = reduce::kOutputs;
inline constexpr auto& kSignatures = reduce::kLogicalSignatures;
inline constexpr ValidateFn validate = &reduce::validate;
}  // namespace reduce_all

/// REDUCE_ALL in the operation table.
struct ReduceAll : OperationDescriptor<OperationType::REDUCE_ALL> {
  static constexpr OperationInfo info{OperationType::REDUCE_ALL, "REDUCE_ALL",
                                      HalVersion::V1_2,          reduce_all::kInputs,
                                      reduce_all::kOutputs,      reduce_all::kSignatures,
                                      reduce_all::validate};
};

}  // namespace nnhal::ops
