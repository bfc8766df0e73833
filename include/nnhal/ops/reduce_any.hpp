#pragma once
/// \file
/// REDUCE_ANY (76): logical OR over the given axes.

#include "nnhal/ops/common/reduce_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace reduce_any {
inline constexpr auto& kInputs = reduce::kInputs;
inline constexpr auto& kOutputs = reduce::kOutputs;
inline constexpr auto& kSignatures = reduce::kLogicalSignatures;
inline constexpr ValidateFn validate = &reduce::validate;
}  // namespace reduce_any

}  // namespace nnhal::ops

namespace nnhal {

/// REDUCE_ANY in the operation table.
template <>
struct Row<OperationType::REDUCE_ANY> {
  static constexpr OperationInfo info = make_row(OperationType::REDUCE_ANY, {
      .inputs = ops::reduce_any::kInputs,
      .outputs = ops::reduce_any::kOutputs,
      .signatures = ops::reduce_any::kSignatures,
      .validate = ops::reduce_any::validate,
  });
};

}  // namespace nnhal
