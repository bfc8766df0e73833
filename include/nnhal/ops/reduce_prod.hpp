#pragma once
/// \file
/// REDUCE_PROD (79): product over the given axes.

#include "nnhal/ops/common/reduce_signatures.hpp"
#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

namespace reduce_prod {
inline constexpr auto& kInputs = reduce::kInputs;
inline constexpr auto& kOutputs = reduce::kOutputs;
inline constexpr auto& kSignatures = reduce::kProdSumSignatures;
inline constexpr ValidateFn validate = &reduce::validate;
}  // namespace reduce_prod

/// REDUCE_PROD in the operation table.
struct ReduceProd : OperationDescriptor<OperationType::REDUCE_PROD> {
  static constexpr OperationInfo info{OperationType::REDUCE_PROD, "REDUCE_PROD",
                                      HalVersion::V1_2,           reduce_prod::kInputs,
                                      reduce_prod::kOutputs,      reduce_prod::kSignatures,
                                      reduce_prod::validate};
};

}  // namespace nnhal::ops
