#pragma once
/// \file
/// REDUCE_MAX (77): maximum over the given axes.

#include "nnhal/ops/common/reduce_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace reduce_max {
inline constexpr auto& kInputs = reduce::kInputs;
inline constexpr auto& kOutputs = reduce::kOutputs;
inline constexpr auto& kSignatures = reduce::kMaxMinSignatures;
inline constexpr ValidateFn validate = &reduce::validate;
}  // namespace reduce_max

}  // namespace nnhal::ops

namespace nnhal {

/// REDUCE_MAX in the operation table.
template <>
struct Row<OperationType::REDUCE_MAX> {
  static constexpr OperationInfo info = make_row(OperationType::REDUCE_MAX, {
      .inputs = ops::reduce_max::kInputs,
      .outputs = ops::reduce_max::kOutputs,
      .signatures = ops::reduce_max::kSignatures,
      .validate = ops::reduce_max::validate,
  });
};

}  // namespace nnhal
