#pragma once
/// \file
/// LOCAL_RESPONSE_NORMALIZATION (13): `out = x / (bias + alpha * sqr_sum)^beta`, the sum of squares
/// taken over `[d - radius, d + radius]` along an axis (the last by default). Float types only.

#include <array>

#include "nnhal/ops/common/axis_rule.hpp"
#include "nnhal/ops/common/v1_0_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace local_response_normalization {
inline constexpr std::array<Slot, 6> kInputs{{
    {"input", Role::Data},
    {"radius", Role::Parameter},
    {"bias", Role::Parameter},
    {"alpha", Role::Parameter},
    {"beta", Role::Parameter},
    {"axis", Role::Parameter, kSlotTrailing},
}};
inline constexpr auto& kOutputs = v1_0::kSingleOutput;
/// {T, INT32, fT, fT, fT} -> {T}: F32 1.0; F16 1.2. With the axis input 1.2.
inline constexpr auto kSignatures = v1_0::with_trailing(
    for_each_type(v1_0::kFloatTypes,
                  [](OperandType t, HalVersion v) {
                    const OperandType f = float_scalar_for(t);
                    return sig(v, {t, OperandType::INT32, f, f, f}, {t});
                  }),
    {OperandType::INT32}, HalVersion::V1_2);

/// Input rank <= 4 when known; a constant axis in [-rank, rank); without the axis input, a
/// declared rank other than 4 needs 1.2.
inline Status validate(const OperationView& op, HalVersion& version) {
  NNHAL_TRY(v1_0::check_max_rank(op, 0, 4));
  NNHAL_TRY(check_constant_axis(op, 5));
  if (op.input_count() == 5) v1_0::raise_unless_rank4(op, 0, version);
  return {};
}
}  // namespace local_response_normalization

}  // namespace nnhal::ops

namespace nnhal {

/// LOCAL_RESPONSE_NORMALIZATION in the operation table.
template <>
struct Row<OperationType::LOCAL_RESPONSE_NORMALIZATION> {
  static constexpr OperationInfo info = make_row(OperationType::LOCAL_RESPONSE_NORMALIZATION, {
      .inputs = ops::local_response_normalization::kInputs,
      .outputs = ops::local_response_normalization::kOutputs,
      .signatures = ops::local_response_normalization::kSignatures,
      .validate = &ops::local_response_normalization::validate,
  });
};

}  // namespace nnhal
