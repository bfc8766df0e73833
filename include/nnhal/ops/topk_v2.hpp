#pragma once
/// \file
/// TOPK_V2 (90): the k largest values along the last dimension (descending) and their indices.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"
#include "nnhal/ops/common/value_rules.hpp"

namespace nnhal::ops {

namespace topk_v2 {
inline constexpr std::array<Slot, 2> kInputs{{
    {"input", Role::Data}, {"k", Role::Parameter},  // INT32 in (0, last dim], checked at execution
}};
inline constexpr std::array<Slot, 2> kOutputs{{
    {"values", Role::Data},
    {"indices", Role::Data},
}};
/// {T, INT32} -> {T, TENSOR_INT32}: F16, F32, I32, QA8 (1.2); QAS8 (1.3).
inline constexpr auto kSignatures =
    for_each_type(lists::kFloatIntQuant, [](OperandType t, HalVersion v) {
      return sig(v, {t, OperandType::INT32}, {t, OperandType::TENSOR_INT32});
  });
/// A constant k in [1, last dimension] (the upper bound when that dimension is known).
inline Status validate(const OperationView& op, HalVersion&) {
  std::int64_t last = INT32_MAX;
  if (auto r = op.input_rank(0))
    if (auto d = rules::known_dim(op, 0, *r - 1)) last = *d;
  return rules::check_scalar_range(op, 1, "k", 1, last);
}
}  // namespace topk_v2

}  // namespace nnhal::ops

namespace nnhal {

/// TOPK_V2 in the operation table.
template <>
struct Row<OperationType::TOPK_V2> {
  static constexpr OperationInfo info = make_row(OperationType::TOPK_V2, {
      .inputs = ops::topk_v2::kInputs,
      .outputs = ops::topk_v2::kOutputs,
      .signatures = ops::topk_v2::kSignatures,
      .validate = &ops::topk_v2::validate,
  });
};

}  // namespace nnhal
