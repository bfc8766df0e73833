#pragma once
/// \file
/// HASHTABLE_LOOKUP (10): looks keys up in a sorted key list and gathers the matching rows of a
/// values tensor (misses give zeros), plus a QA8 hit mask.

#include <array>

#include "nnhal/ops/common/v1_0_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"
#include "nnhal/ops/common/value_rules.hpp"

namespace nnhal::ops {

namespace hashtable_lookup {
inline constexpr std::array<Slot, 3> kInputs{{
    {"lookups", Role::Data},
    {"keys", Role::Weights},
    {"values", Role::Weights},
}};
inline constexpr std::array<Slot, 2> kOutputs{{
    {"output", Role::Data},
    {"hits", Role::Data},
}};
/// {TENSOR_INT32, TENSOR_INT32, T} -> {T, TENSOR_QUANT8_ASYMM} for T = F32, I32, QA8 (all 1.0).
inline constexpr auto kSignatures = for_each_type(
    std::array<TypeVersion, 3>{{
        {OperandType::TENSOR_FLOAT32, HalVersion::V1_0},
        {OperandType::TENSOR_INT32, HalVersion::V1_0},
        {OperandType::TENSOR_QUANT8_ASYMM, HalVersion::V1_0},
    }},
    [](OperandType t, HalVersion v) {
      using enum OperandType;
      return sig(v, {TENSOR_INT32, TENSOR_INT32, t}, {t, TENSOR_QUANT8_ASYMM});
  });
/// lookups and keys 1-D where known; as many keys as value rows where both are known.
inline Status validate(const OperationView& op, HalVersion&) {
  NNHAL_TRY(rules::check_1d(op, 0, "lookups"));
  NNHAL_TRY(rules::check_1d(op, 1, "keys"));
  const auto keys = rules::known_dim(op, 1, 0);
  const auto rows = rules::known_dim(op, 2, 0);
  if (keys && rows && *keys != *rows)
    return NNHAL_INVALID(
        "input 1 (keys) has %" PRIu32 " entries, input 2 (values) %" PRIu32 " rows", *keys, *rows);
  return {};
}
}  // namespace hashtable_lookup

}  // namespace nnhal::ops

namespace nnhal {

/// HASHTABLE_LOOKUP in the operation table.
template <>
struct Row<OperationType::HASHTABLE_LOOKUP> {
  static constexpr OperationInfo info = make_row(OperationType::HASHTABLE_LOOKUP, {
      .inputs = ops::hashtable_lookup::kInputs,
      .outputs = ops::hashtable_lookup::kOutputs,
      .signatures = ops::hashtable_lookup::kSignatures,
      .validate = &ops::hashtable_lookup::validate,
  });
};

}  // namespace nnhal
