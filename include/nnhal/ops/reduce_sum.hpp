#pragma once
/// \file
/// REDUCE_SUM (80): sum over the given axes.

#include "nnhal/ops/common/reduce_signatures.hpp"
#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

namespace reduce_sum {
inline constexpr auto& kInputs = reduce::kInputs;
inline constexpr auto& kOutputs = reduce::kOutputs;
inline constexpr auto& kSignatures = reduce::kProdSumSignatures;
inline constexpr ValidateFn validate = &reduce::validate;
}  // namespace reduce_sum

/// REDUCE_SUM in the operation table.
struct ReduceSum : OperationDescriptor<OperationType::REDUCE_SUM> {
  static constexpr OperationInfo info{OperationType::REDUCE_SUM, "REDUCE_SUM",
                                      HalVersion::V1_2,          reduce_sum::kInputs,
                                      reduce_sum::kOutputs,      reduce_sum::kSignatures,
                                      reduce_sum::validate};
};

}  // namespace nnhal::ops
