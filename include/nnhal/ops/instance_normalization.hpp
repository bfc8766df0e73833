#pragma once
/// \file
/// INSTANCE_NORMALIZATION (57): per-instance, per-channel normalisation of a 4-D tensor,
/// `gamma * (x - mean) / sqrt(var + epsilon) + beta`.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

namespace instance_normalization {
inline constexpr std::array<Slot, 5> kInputs{{
    {"input", Role::Data},
    {"gamma", Role::Parameter},
    {"beta", Role::Parameter},
    {"epsilon", Role::Parameter},
    {"layout", Role::Layout},
}};
inline constexpr auto& kOutputs = lists::kSingleOutput;
/// {T, fT, fT, fT, BOOL} -> {T}: F16, F32 (1.2).
inline constexpr auto kSignatures = for_each_type(lists::kFloat, [](OperandType t, HalVersion v) {
  const OperandType s = float_scalar_for(t);
  return sig(v, {t, s, s, s, OperandType::BOOL}, {t});
});
}  // namespace instance_normalization

/// INSTANCE_NORMALIZATION in the operation table.
struct InstanceNormalization : OperationDescriptor<OperationType::INSTANCE_NORMALIZATION> {
  static constexpr OperationInfo info{OperationType::INSTANCE_NORMALIZATION,
                                      "INSTANCE_NORMALIZATION",
                                      HalVersion::V1_2,
                                      instance_normalization::kInputs,
                                      instance_normalization::kOutputs,
                                      instance_normalization::kSignatures};
};

}  // namespace nnhal::ops
