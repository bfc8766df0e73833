#pragma once
/// \file
/// REDUCE_MIN (78): minimum over the given axes.

#include "nnhal/ops/common/reduce_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace reduce_min {
inline constexpr auto& kInputs = reduce::kInputs;
inline constexpr auto& kOutputs = reduce::kOutputs;
inline constexpr auto& kSignatures = reduce::kMaxMinSignatures;
inline constexpr ValidateFn validate = &reduce::validate;
}  // namespace reduce_min

}  // namespace nnhal::ops

namespace nnhal {

/// REDUCE_MIN in the operation table.
template <>
struct Row<OperationType::REDUCE_MIN> {
  static constexpr OperationInfo info = make_row(OperationType::REDUCE_MIN, {
      .inputs = ops::reduce_min::kInputs,
      .outputs = ops::reduce_min::kOutputs,
      .signatures = ops::reduce_min::kSignatures,
      .validate = ops::reduce_min::validate,
  });
};

}  // namespace nnhal
