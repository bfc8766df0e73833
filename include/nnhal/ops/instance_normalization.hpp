#pragma once
/// \file
/// INSTANCE_NORMALIZATION (57): per-instance, per-channel normalisation of a 4-D tensor,
/// `gamma * (x - mean) / sqrt(var + epsilon) + beta`.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

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

/// Input 0 has rank 4 when its rank is known (the reference checks it at execution).
inline Status validate(const OperationView& op, HalVersion&) {
  if (auto r = op.input_rank(0); r && *r != 4) return NNHAL_INVALID("input 0 has rank %zu, it must be 4", *r);
  return {};
}
}  // namespace instance_normalization

}  // namespace nnhal::ops

namespace nnhal {

/// INSTANCE_NORMALIZATION in the operation table.
template <>
struct Row<OperationType::INSTANCE_NORMALIZATION> {
  static constexpr OperationInfo info = make_row(OperationType::INSTANCE_NORMALIZATION, {
      .inputs = ops::instance_normalization::kInputs,
      .outputs = ops::instance_normalization::kOutputs,
      .signatures = ops::instance_normalization::kSignatures,
      .validate = &ops::instance_normalization::validate,
  });
};

}  // namespace nnhal
