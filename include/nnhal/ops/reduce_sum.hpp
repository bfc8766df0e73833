#pragma once
/// \file
/// REDUCE_SUM (80): sum over the given axes.

#include "nnhal/ops/common/reduce_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace reduce_sum {
inline constexpr auto& kInputs = reduce::kInputs;
inline constexpr auto& kOutputs = reduce::kOutputs;
inline constexpr auto& kSignatures = reduce::kProdSumSignatures;
inline constexpr ValidateFn validate = &reduce::validate;
}  // namespace reduce_sum

}  // namespace nnhal::ops

namespace nnhal {

/// REDUCE_SUM in the operation table.
template <>
struct Row<OperationType::REDUCE_SUM> {
  static constexpr OperationInfo info = make_row(OperationType::REDUCE_SUM, {
      .inputs = ops::reduce_sum::kInputs,
      .outputs = ops::reduce_sum::kOutputs,
      .signatures = ops::reduce_sum::kSignatures,
      .validate = ops::reduce_sum::validate,
  });
};

}  // namespace nnhal
