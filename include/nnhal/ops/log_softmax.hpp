#pragma once
/// \file
/// LOG_SOFTMAX (64): `x * beta - log(sum(exp(x * beta), axis))`.

#include "nnhal/ops/common/axis_rule.hpp"
#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace log_softmax {
inline constexpr std::array<Slot, 3> kInputs{{
    {"input", Role::Data},
    {"beta", Role::Parameter},
    {"axis", Role::Parameter},
}};
inline constexpr auto& kOutputs = lists::kSingleOutput;
/// {T, fT, INT32} -> {T}: F16, F32 (1.2).
inline constexpr auto kSignatures = for_each_type(lists::kFloat, [](OperandType t, HalVersion v) {
  return sig(v, {t, float_scalar_for(t), OperandType::INT32}, {t});
});

/// A constant axis lies in [-rank, rank) when the input's rank is known.
inline Status validate(const OperationView& op, HalVersion&) { return check_constant_axis(op, 2); }
}  // namespace log_softmax

}  // namespace nnhal::ops

namespace nnhal {

/// LOG_SOFTMAX in the operation table.
template <>
struct Row<OperationType::LOG_SOFTMAX> {
  static constexpr OperationInfo info = make_row(OperationType::LOG_SOFTMAX, {
      .inputs = ops::log_softmax::kInputs,
      .outputs = ops::log_softmax::kOutputs,
      .signatures = ops::log_softmax::kSignatures,
      .validate = &ops::log_softmax::validate,
  });
};

}  // namespace nnhal
