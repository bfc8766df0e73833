#pragma once
/// \file
/// ARGMAX (39): index of the largest value along an axis (TENSOR_INT32 output).

#include "nnhal/ops/common/arg_min_max.hpp"
#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

namespace argmax {
inline constexpr auto& kInputs = arg_min_max::kInputs;
inline constexpr auto& kOutputs = arg_min_max::kOutputs;
inline constexpr auto& kSignatures = arg_min_max::kSignatures;
}  // namespace argmax

/// ARGMAX in the operation table.
struct Argmax : OperationDescriptor<OperationType::ARGMAX> {
  static constexpr OperationInfo info{OperationType::ARGMAX, "ARGMAX",         HalVersion::V1_2,
                                      argmax::kInputs,       argmax::kOutputs, argmax::kSignatures};
};

}  // namespace nnhal::ops
