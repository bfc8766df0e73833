#pragma once
/// \file
/// EXPAND_DIMS (50): inserts a dimension of size 1 at `axis`; out q = in.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"
#include "nnhal/ops/common/value_rules.hpp"

namespace nnhal::ops {

namespace expand_dims {
inline constexpr std::array<Slot, 2> kInputs{{
    {"input", Role::Data},
    {"axis", Role::Parameter},  // INT32 in [-(rank + 1), rank + 1), checked at execution
}};
inline constexpr auto& kOutputs = lists::kSingleOutput;
/// {T, INT32} -> {T}: F16, F32, I32, QA8 (1.2); QAS8 (1.3).
inline constexpr auto kSignatures =
    for_each_type(lists::kFloatIntQuant, [](OperandType t, HalVersion v) {
      return sig(v, {t, OperandType::INT32}, {t});
  });
/// A constant axis lies in [-(rank + 1), rank + 1) for a known input rank.
inline Status validate(const OperationView& op, HalVersion&) { return rules::check_axes(op, 1, "axis", 0, 1); }
}  // namespace expand_dims

}  // namespace nnhal::ops

namespace nnhal {

/// EXPAND_DIMS in the operation table.
template <>
struct Row<OperationType::EXPAND_DIMS> {
  static constexpr OperationInfo info = make_row(OperationType::EXPAND_DIMS, {
      .inputs = ops::expand_dims::kInputs,
      .outputs = ops::expand_dims::kOutputs,
      .signatures = ops::expand_dims::kSignatures,
      .validate = &ops::expand_dims::validate,
  });
};

}  // namespace nnhal
