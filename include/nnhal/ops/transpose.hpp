#pragma once
/// \file
/// TRANSPOSE (37): permutes the dimensions, `out.dim[i] = in.dim[perm[i]]` (reversed when the
/// permutation is omitted); the output keeps the input's quantization.

#include <array>

#include "nnhal/ops/common/v1_0_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"
#include "nnhal/ops/common/value_rules.hpp"

namespace nnhal::ops {

namespace transpose {
inline constexpr std::array<Slot, 2> kInputs{{
    {"input", Role::Data},
    {"perm", Role::Parameter, kSlotOmittable | kSlotValueRead},  // NO_VALUE: reverse the dimensions
}};
inline constexpr auto& kOutputs = v1_0::kSingleOutput;
/// {T, TENSOR_INT32} -> {T}: F32, QA8 1.1; F16 1.2; QAS8 1.3.
inline constexpr auto kSignatures =
    for_each_type(v1_0::float_quant_types(HalVersion::V1_1),
                  [](OperandType t, HalVersion v) { return sig(v, {t, OperandType::TENSOR_INT32}, {t}); });

/// Input rank <= 4 when known; perm 1-D, and when constant a permutation of [0, rank) for a
/// known input rank (a repeat would make the copy read past the input).
inline Status validate(const OperationView& op, HalVersion& version) {
  NNHAL_TRY(v1_0::validate_rank4(op, version));
  if (op.input(1).lifetime == OperandLifeTime::NO_VALUE) return {};
  NNHAL_TRY(rules::check_1d(op, 1, "perm"));
  const auto rank = op.input_rank(0);
  const auto perm = rules::const_ints(op, 1);
  if (!rank || !perm) return {};
  if (perm->size() != *rank)
    return NNHAL_INVALID("input 1 (perm) has %zu entries, the input has rank %zu", perm->size(), *rank);
  std::uint32_t seen = 0;
  for (std::size_t i = 0; i < perm->size(); ++i) {
    const std::int32_t p = (*perm)[i];
    if (p < 0 || static_cast<std::size_t>(p) >= *rank || (seen & (1u << p)) != 0)
      return NNHAL_INVALID("input 1 (perm) is not a permutation of [0, %zu): entry %zu is %" PRId32,
                           *rank, i, p);
    seen |= 1u << p;
  }
  return {};
}
}  // namespace transpose

}  // namespace nnhal::ops

namespace nnhal {

/// TRANSPOSE in the operation table.
template <>
struct Row<OperationType::TRANSPOSE> {
  static constexpr OperationInfo info = make_row(OperationType::TRANSPOSE, {
      .inputs = ops::transpose::kInputs,
      .outputs = ops::transpose::kOutputs,
      .signatures = ops::transpose::kSignatures,
      .validate = &ops::transpose::validate,
      .flags = kOpAllowsZeroSized | kOpAllowsOmitted,
  });
};

}  // namespace nnhal
