#pragma once
/// \file
/// ARGMIN (40): index of the smallest value along an axis (TENSOR_INT32 output).

#include "nnhal/ops/common/arg_min_max.hpp"
#include "nnhal/interface/operation_info.hpp"
#include "nnhal/ops/common/value_rules.hpp"

namespace nnhal::ops {

namespace argmin {
inline constexpr auto& kInputs = arg_min_max::kInputs;
inline constexpr auto& kOutputs = arg_min_max::kOutputs;
inline constexpr auto& kSignatures = arg_min_max::kSignatures;
/// A constant axis in [-rank, rank) for a known rank.
inline Status validate(const OperationView& op, HalVersion&) { return rules::check_axes(op, 1, "axis"); }
}  // namespace argmin

}  // namespace nnhal::ops

namespace nnhal {

/// ARGMIN in the operation table.
template <>
struct Row<OperationType::ARGMIN> {
  static constexpr OperationInfo info = make_row(OperationType::ARGMIN, {
      .inputs = ops::argmin::kInputs,
      .outputs = ops::argmin::kOutputs,
      .signatures = ops::argmin::kSignatures,
      .validate = &ops::argmin::validate,
  });
};

}  // namespace nnhal
