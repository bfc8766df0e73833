#pragma once
/// \file
/// Shared table parts of REDUCE_ALL, REDUCE_ANY, REDUCE_MAX, REDUCE_MIN, REDUCE_PROD and
/// REDUCE_SUM (Reduce.cpp): {input, axes, keep_dims} -> {output}, input rank <= 4.

#include <array>

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/signature.hpp"
#include "nnhal/interface/operation_view.hpp"
#include "nnhal/ops/common/value_rules.hpp"

namespace nnhal::ops::reduce {

inline constexpr std::array<Slot, 3> kInputs{{
    {"input", Role::Data},
    {"axes", Role::Parameter, kSlotValueRead},  // TENSOR_INT32 1-D, values in [-rank, rank)
    {"keep_dims", Role::Parameter},  // BOOL
}};
/// Reducing every dimension without keep_dims gives shape [1]; REDUCE_MAX/MIN: out q = in.
inline constexpr std::array<Slot, 1> kOutputs{{{"output", Role::Data}}};

/// {T, TENSOR_INT32, BOOL} -> {T} for each listed tensor type.
template <std::size_t N>
constexpr auto signatures(const std::array<TypeVersion, N>& types) {
  return for_each_type(types, [](OperandType t, HalVersion v) {
    return sig(v, {t, OperandType::TENSOR_INT32, OperandType::BOOL}, {t});
  });
}

/// REDUCE_ALL / REDUCE_ANY: TENSOR_BOOL8 (1.2).
inline constexpr auto kLogicalSignatures = signatures(std::array<TypeVersion, 1>{{
    {OperandType::TENSOR_BOOL8, HalVersion::V1_2},
}});
/// REDUCE_MAX / REDUCE_MIN: F16, F32, QA8 (1.2); QAS8 (1.3).
inline constexpr auto kMaxMinSignatures = signatures(lists::kFloatQuant);
/// REDUCE_PROD / REDUCE_SUM: F16, F32 (1.2).
inline constexpr auto kProdSumSignatures = signatures(lists::kFloat);

/// Input rank <= 4 when known (every Reduce.cpp validate function checks it); axes 1-D where
/// known, constant axes in [-rank, rank).
inline Status validate(const OperationView& op, HalVersion&) {
  NNHAL_TRY(lists::check_max_rank(op, 0, 4));
  NNHAL_TRY(rules::check_1d(op, 1, "axes"));
  return rules::check_axes(op, 1, "axes");
}

}  // namespace nnhal::ops::reduce
