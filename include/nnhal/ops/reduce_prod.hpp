#pragma once
/// \file
/// REDUCE_PROD (79): product over the given axes.

#include "nnhal/ops/common/reduce_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace reduce_prod {
inline constexpr auto& kInputs = reduce::kInputs;
inline constexpr auto& kOutputs = reduce::kOutputs;
inline constexpr auto& kSignatures = reduce::kProdSumSignatures;
inline constexpr ValidateFn validate = &reduce::validate;
}  // namespace reduce_prod

}  // namespace nnhal::ops

namespace nnhal {

/// REDUCE_PROD in the operation table.
template <>
struct Row<OperationType::REDUCE_PROD> {
  static constexpr OperationInfo info = make_row(OperationType::REDUCE_PROD, {
      .inputs = ops::reduce_prod::kInputs,
      .outputs = ops::reduce_prod::kOutputs,
      .signatures = ops::reduce_prod::kSignatures,
      .validate = ops::reduce_prod::validate,
  });
};

}  // namespace nnhal
