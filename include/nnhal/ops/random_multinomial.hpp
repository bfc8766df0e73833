#pragma once
/// \file
/// RANDOM_MULTINOMIAL (74): draws samples from categorical distributions given by logits.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/ops/operation_info.hpp"

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

/// RANDOM_MULTINOMIAL in the operation table.
struct RandomMultinomial : OperationDescriptor<OperationType::RANDOM_MULTINOMIAL> {
  static constexpr OperationInfo info{OperationType::RANDOM_MULTINOMIAL,
                                      "RANDOM_MULTINOMIAL",
                                      HalVersion::V1_2,
                                      random_multinomial::kInputs,
                                      random_multinomial::kOutputs,
                                      random_multinomial::kSignatures};
};

}  // namespace nnhal::ops
