#pragma once
/// \file
/// ARGMAX (39): index of the largest value along an axis (TENSOR_INT32 output).

#include "nnhal/ops/common/arg_min_max.hpp"
#include "nnhal/interface/operation_info.hpp"
#include "nnhal/ops/common/value_rules.hpp"

namespace nnhal::ops {

namespace argmax {
inline constexpr auto& kInputs = arg_min_max::kInputs;
inline constexpr auto& kOutputs = arg_min_max::kOutputs;
inline constexpr auto& kSignatures = arg_min_max::kSignatures;
/// A constant axis in [-rank, rank) for a known rank.
inline Status validate(const OperationView& op, HalVersion&) { return rules::check_axes(op, 1, "axis"); }
}  // namespace argmax

}  // namespace nnhal::ops

namespace nnhal {

/// ARGMAX in the operation table.
template <>
struct Row<OperationType::ARGMAX> {
  static constexpr OperationInfo info = make_row(OperationType::ARGMAX, {
      .inputs = ops::argmax::kInputs,
      .outputs = ops::argmax::kOutputs,
      .signatures = ops::argmax::kSignatures,
      .validate = &ops::argmax::validate,
  });
};

}  // namespace nnhal
