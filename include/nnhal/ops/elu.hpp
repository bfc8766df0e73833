#pragma once
/// \file
/// ELU (98): `max(0, x) + min(0, alpha * (exp(x) - 1))`. The operation's documentation allows
/// zero-sized inputs but the reference executor registration does not; the reference wins, so
/// kOpAllowsZeroSized is not set.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace elu {
inline constexpr std::array<Slot, 2> kInputs{{
    {"input", Role::Data},
    {"alpha", Role::Parameter},
}};
inline constexpr auto& kOutputs = lists::kSingleOutput;
/// F16, F32 (1.3).
inline constexpr std::array<TypeVersion, 2> kTypes{{
    {OperandType::TENSOR_FLOAT16, HalVersion::V1_3},
    {OperandType::TENSOR_FLOAT32, HalVersion::V1_3},
}};
/// {T, fT} -> {T}.
inline constexpr auto kSignatures = for_each_type(kTypes, [](OperandType t, HalVersion v) {
  return sig(v, {t, float_scalar_for(t)}, {t});
});
}  // namespace elu

}  // namespace nnhal::ops

namespace nnhal {

/// ELU in the operation table.
template <>
struct Row<OperationType::ELU> {
  static constexpr OperationInfo info = make_row(OperationType::ELU, {
      .inputs = ops::elu::kInputs,
      .outputs = ops::elu::kOutputs,
      .signatures = ops::elu::kSignatures,
  });
};

}  // namespace nnhal
