#pragma once
/// \file
/// ARGMIN (40): index of the smallest value along an axis (TENSOR_INT32 output).

#include "nnhal/ops/common/arg_min_max.hpp"
#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

namespace argmin {
inline constexpr auto& kInputs = arg_min_max::kInputs;
inline constexpr auto& kOutputs = arg_min_max::kOutputs;
inline constexpr auto& kSignatures = arg_min_max::kSignatures;
}  // namespace argmin

/// ARGMIN in the operation table.
struct Argmin : OperationDescriptor<OperationType::ARGMIN> {
  static constexpr OperationInfo info{OperationType::ARGMIN, "ARGMIN",         HalVersion::V1_2,
                                      argmin::kInputs,       argmin::kOutputs, argmin::kSignatures};
};

}  // namespace nnhal::ops
