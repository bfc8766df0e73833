#pragma once
/// \file
/// RANDOM_MULTINOMIAL (74): draws samples from categorical distributions given by logits.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"
#include "nnhal/ops/common/value_rules.hpp"

namespace nnhal::ops {

namespace random_multinomial {
inline constexpr std::array<Slot, 3> kInputs{{
    {"logits", Role::Data},  // [batches, classes]
    {"num_samples", Role::Parameter},
    {"seeds", Role::Parameter},  // TENSOR_INT32 [2]; both 0 = random seed
}};
/// TENSOR_INT32 [batches, samples].
inline constexpr auto& kOutputs = lists::kSingleOutput;
/// {T, INT32, TENSOR_INT32} -> {TENSOR_INT32}: F16, F32 (1.2).
inline constexpr auto kSignatures = for_each_type(lists::kFloat, [](OperandType t, HalVersion v) {
  return sig(v, {t, OperandType::INT32, OperandType::TENSOR_INT32}, {OperandType::TENSOR_INT32});
});

/// What the declared shapes and constants already show: logits of rank 2, a constant
/// num_samples > 0, seeds [2].
inline Status validate(const OperationView& op, HalVersion&) {
  if (auto r = op.input_rank(0); r && *r != 2) return NNHAL_INVALID("input 0 (logits) has rank %zu, it must be 2", *r);
  NNHAL_TRY(rules::check_scalar_range(op, 1, "num_samples", 1, INT32_MAX));
  return rules::check_shape(op, 2, "seeds", {2});
}
}  // namespace random_multinomial

}  // namespace nnhal::ops

namespace nnhal {

/// RANDOM_MULTINOMIAL in the operation table.
template <>
struct Row<OperationType::RANDOM_MULTINOMIAL> {
  static constexpr OperationInfo info = make_row(OperationType::RANDOM_MULTINOMIAL, {
      .inputs = ops::random_multinomial::kInputs,
      .outputs = ops::random_multinomial::kOutputs,
      .signatures = ops::random_multinomial::kSignatures,
      .validate = &ops::random_multinomial::validate,
  });
};

}  // namespace nnhal
