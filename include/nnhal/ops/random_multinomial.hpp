#pragma once
/// \file
/// RANDOM_MULTINOMIAL (74): draws samples from categorical distributions given by logits.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

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
  });
};

}  // namespace nnhal
