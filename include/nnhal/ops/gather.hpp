#pragma once
/// \file
/// GATHER (51): picks slices of the input along `axis` at the given indices; out q = in.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"
#include "nnhal/ops/common/value_rules.hpp"

namespace nnhal::ops {

namespace gather {
inline constexpr std::array<Slot, 3> kInputs{{
    {"input", Role::Data},
    {"axis", Role::Parameter},  // INT32 in [-rank, rank), checked at execution
    {"indices", Role::Data},    // TENSOR_INT32 of any rank; values in bounds at execution
}};
inline constexpr auto& kOutputs = lists::kSingleOutput;
/// {T, INT32, TENSOR_INT32} -> {T}: F16, F32, I32, QA8 (1.2); QAS8 (1.3).
inline constexpr auto kSignatures =
    for_each_type(lists::kFloatIntQuant, [](OperandType t, HalVersion v) {
      return sig(v, {t, OperandType::INT32, OperandType::TENSOR_INT32}, {t});
  });
/// A constant axis in [-rank, rank) for a known rank; with a constant axis and a known axis
/// size, constant indices in [0, size).
inline Status validate(const OperationView& op, HalVersion&) {
  NNHAL_TRY(rules::check_axes(op, 1, "axis"));
  const auto rank = op.input_rank(0);
  const auto axis = op.constant_scalar<OperandType::INT32>(1);
  if (!rank || !axis) return {};
  const auto a = static_cast<std::size_t>(*axis < 0 ? *axis + static_cast<std::int32_t>(*rank) : *axis);
  if (auto size = rules::known_dim(op, 0, a)) return rules::check_values_range(op, 2, "indices", 0, std::int64_t{*size} - 1);
  return {};
}
}  // namespace gather

}  // namespace nnhal::ops

namespace nnhal {

/// GATHER in the operation table.
template <>
struct Row<OperationType::GATHER> {
  static constexpr OperationInfo info = make_row(OperationType::GATHER, {
      .inputs = ops::gather::kInputs,
      .outputs = ops::gather::kOutputs,
      .signatures = ops::gather::kSignatures,
      .validate = &ops::gather::validate,
  });
};

}  // namespace nnhal
