#pragma once
/// \file
/// SOFTMAX (25): `exp(beta * x) / sum(exp(beta * x))` along an axis (the last by default).
/// Quantized outputs are documented at scale 1/256, zeroPoint 0 (QA8) or -128 (QAS8); the
/// reference executor uses the declared output parameters.

#include <array>

#include "nnhal/ops/common/axis_rule.hpp"
#include "nnhal/ops/common/v1_0_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace softmax {
inline constexpr std::array<Slot, 3> kInputs{{
    {"input", Role::Data},
    {"beta", Role::Parameter},
    {"axis", Role::Parameter, kSlotTrailing},
}};
inline constexpr auto& kOutputs = v1_0::kSingleOutput;
/// {T, fT} -> {T}: F32, QA8 1.0; F16 1.2; QAS8 1.3 (beta is FLOAT16 for F16, FLOAT32 otherwise).
/// With the axis input 1.2.
inline constexpr auto kSignatures = v1_0::with_trailing(
    for_each_type(v1_0::float_quant_types(HalVersion::V1_0),
                  [](OperandType t, HalVersion v) { return sig(v, {t, float_scalar_for(t)}, {t}); }),
    {OperandType::INT32}, HalVersion::V1_2);

/// Input rank <= 4 when known; a constant axis in [-rank, rank); without the axis input, a known
/// rank other than 2 or 4 needs 1.2.
inline Status validate(const OperationView& op, HalVersion& version) {
  NNHAL_TRY(v1_0::check_max_rank(op, 0, 4));
  NNHAL_TRY(check_constant_axis(op, 2));
  if (const auto r = op.input_rank(0); op.input_count() == 2 && r && *r != 2 && *r != 4)
    v1_0::raise(version, HalVersion::V1_2);
  return {};
}
}  // namespace softmax

}  // namespace nnhal::ops

namespace nnhal {

/// SOFTMAX in the operation table.
template <>
struct Row<OperationType::SOFTMAX> {
  static constexpr OperationInfo info = make_row(OperationType::SOFTMAX, {
      .inputs = ops::softmax::kInputs,
      .outputs = ops::softmax::kOutputs,
      .signatures = ops::softmax::kSignatures,
      .validate = &ops::softmax::validate,
      .flags = kOpAllowsZeroSized,
  });
};

}  // namespace nnhal
