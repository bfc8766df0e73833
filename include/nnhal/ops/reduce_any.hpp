#pragma once
/// \file
/// REDUCE_ANY (76): logical OR over the given axes.

#include "nnhal/ops/common/reduce_signatures.hpp"
#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

namespace reduce_any {
inline constexpr auto& kInputs = reduce::kInputs;
inline constexpr auto& kOutputs = reduce::kOutputs;
inline constexpr auto& kSignatures = reduce::kLogicalSignatures;
inline constexpr ValidateFn validate = &reduce::validate;
}  // namespace reduce_any

/// REDUCE_ANY in the operation table.
struct ReduceAny : OperationDescriptor<OperationType::REDUCE_ANY> {
  static constexpr OperationInfo info{OperationType::REDUCE_ANY, "REDUCE_ANY",
                                      HalVersion::V1_2,          reduce_any::kInputs,
                                      reduce_any::kOutputs,      reduce_any::kSignatures,
                                      reduce_any::validate};
};

}  // namespace nnhal::ops
