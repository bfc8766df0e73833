#pragma once
/// \file
/// REDUCE_ALL (75): logical AND over the given axes.

#include "nnhal/ops/common/reduce_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace reduce_all {
inline constexpr auto& kInputs = reduce::kInputs;
inline constexpr auto& kOutputs = reduce::kOutputs;
inline constexpr auto& kSignatures = reduce::kLogicalSignatures;
inline constexpr ValidateFn validate = &reduce::validate;
}  // namespace reduce_all

}  // namespace nnhal::ops

namespace nnhal {

/// REDUCE_ALL in the operation table.
template <>
struct Row<OperationType::REDUCE_ALL> {
  static constexpr OperationInfo info = make_row(OperationType::REDUCE_ALL, {
      .inputs = ops::reduce_all::kInputs,
      .outputs = ops::reduce_all::kOutputs,
      .signatures = ops::reduce_all::kSignatures,
      .validate = ops::reduce_all::validate,
  });
};

}  // namespace nnhal
