#pragma once
/// \file
/// LSH_PROJECTION (15): locality-sensitive hashing of the input rows by the signs of random
/// projections, sparse (`[num_hash]`) or dense (`[num_hash * num_bits]`) TENSOR_INT32 output.

#include <array>
#include <cstddef>

#include "nnhal/ops/common/v1_0_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"
#include "nnhal/ops/common/value_rules.hpp"

namespace nnhal::ops {

namespace lsh_projection {
inline constexpr std::array<Slot, 4> kInputs{{
    {"hash", Role::Weights},
    {"input", Role::Data},
    {"weight", Role::Weights, kSlotOmittable},  // NO_VALUE: every weight is 1.0
    {"type", Role::Parameter, kSlotRequired, value_set({1, 2, 3})},  // SPARSE_DEPRECATED, DENSE, SPARSE
}};
inline constexpr auto& kOutputs = v1_0::kSingleOutput;

/// {H, I, H, INT32} -> {TENSOR_INT32} with H (hash and weight) F32 1.0 or F16 1.2, and input I
/// any of F32, I32, QA8 (1.0) or F16 (1.2, as an operand type). The type value 3 (SPARSE) is
/// documented as 1.2 but is not version-checked by the reference validation either.
inline constexpr auto kSignatures = [] {
  using enum OperandType;
  constexpr std::array<TypeVersion, 4> inputs{{
      {TENSOR_FLOAT32, HalVersion::V1_0},
      {TENSOR_INT32, HalVersion::V1_0},
      {TENSOR_QUANT8_ASYMM, HalVersion::V1_0},
      {TENSOR_FLOAT16, HalVersion::V1_2},
  }};
  std::array<Signature, v1_0::kFloatTypes.size() * inputs.size()> out{};
  std::size_t k = 0;
  for (const TypeVersion& h : v1_0::kFloatTypes)
    for (const TypeVersion& i : inputs)
      out[k++] = sig(max_version(h.version, i.version), {h.type, i.type, h.type, INT32}, {TENSOR_INT32});
  return out;
}();

/// What the declared shapes already show (the reference's runtime checks): hash [num_hash,
/// num_bits] with 1 <= num_bits <= 32, a given weight 1-D. (A constant type outside 1, 2, 3 is
/// refused by the generic check of the slot's value set, nnhal/validate/slot_values.hpp.)
inline Status validate(const OperationView& op, HalVersion&) {
  NNHAL_TRY(rules::check_shape(op, 0, "hash", {0, 0}));
  if (auto bits = rules::known_dim(op, 0, 1); bits && *bits > 32)
    return NNHAL_INVALID(
        "input 0 (hash) has %" PRIu32 " bits per function, at most 32 are supported", *bits);
  if (op.input(2).lifetime != OperandLifeTime::NO_VALUE) NNHAL_TRY(rules::check_1d(op, 2, "weight"));
  return {};
}
}  // namespace lsh_projection

}  // namespace nnhal::ops

namespace nnhal {

/// LSH_PROJECTION in the operation table.
template <>
struct Row<OperationType::LSH_PROJECTION> {
  static constexpr OperationInfo info = make_row(OperationType::LSH_PROJECTION, {
      .inputs = ops::lsh_projection::kInputs,
      .outputs = ops::lsh_projection::kOutputs,
      .signatures = ops::lsh_projection::kSignatures,
      .validate = &ops::lsh_projection::validate,
      .flags = kOpAllowsOmitted,
  });
};

}  // namespace nnhal
