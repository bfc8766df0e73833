#pragma once
/// \file
/// EMBEDDING_LOOKUP (7): gathers rows of a values tensor by index, `out[i] = values[lookups[i]]`;
/// the output keeps the values' quantization.

#include <array>

#include "nnhal/ops/common/v1_0_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"
#include "nnhal/ops/common/value_rules.hpp"

namespace nnhal::ops {

namespace embedding_lookup {
inline constexpr std::array<Slot, 2> kInputs{{
    {"lookups", Role::Data},
    {"values", Role::Weights},
}};
inline constexpr auto& kOutputs = v1_0::kSingleOutput;
/// {TENSOR_INT32, T} -> {T}: F32 1.0; I32, QA8 1.2; F16, QAS8 1.3. Ranks and out-of-range
/// indices are runtime checks.
inline constexpr auto kSignatures = for_each_type(
    std::array<TypeVersion, 5>{{
        {OperandType::TENSOR_FLOAT32, HalVersion::V1_0},
        {OperandType::TENSOR_INT32, HalVersion::V1_2},
        {OperandType::TENSOR_QUANT8_ASYMM, HalVersion::V1_2},
        {OperandType::TENSOR_FLOAT16, HalVersion::V1_3},
        {OperandType::TENSOR_QUANT8_ASYMM_SIGNED, HalVersion::V1_3},
    }},
    [](OperandType t, HalVersion v) { return sig(v, {OperandType::TENSOR_INT32, t}, {t}); });
/// lookups 1-D and values of rank >= 2 where known; constant lookups in [0, rows) when the
/// number of value rows is known.
inline Status validate(const OperationView& op, HalVersion&) {
  NNHAL_TRY(rules::check_1d(op, 0, "lookups"));
  if (auto r = op.input_rank(1); r && *r < 2)
    return NNHAL_INVALID("input 1 (values) has rank %zu, it must be >= 2", *r);
  if (auto rows = rules::known_dim(op, 1, 0)) return rules::check_values_range(op, 0, "lookups", 0, std::int64_t{*rows} - 1);
  return {};
}
}  // namespace embedding_lookup

}  // namespace nnhal::ops

namespace nnhal {

/// EMBEDDING_LOOKUP in the operation table.
template <>
struct Row<OperationType::EMBEDDING_LOOKUP> {
  static constexpr OperationInfo info = make_row(OperationType::EMBEDDING_LOOKUP, {
      .inputs = ops::embedding_lookup::kInputs,
      .outputs = ops::embedding_lookup::kOutputs,
      .signatures = ops::embedding_lookup::kSignatures,
      .validate = &ops::embedding_lookup::validate,
  });
};

}  // namespace nnhal
