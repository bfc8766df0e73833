#pragma once
/// \file
/// TILE (89): repeats the input `multiples[i]` times along every axis; out q = in.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"
#include "nnhal/ops/common/value_rules.hpp"

namespace nnhal::ops {

namespace tile {
inline constexpr std::array<Slot, 2> kInputs{{
    {"input", Role::Data}, {"multiples", Role::Parameter, kSlotValueRead},  // TENSOR_INT32 [rank]
}};
inline constexpr auto& kOutputs = lists::kSingleOutput;
/// {T, TENSOR_INT32} -> {T}: F16, F32, I32, QA8 (1.2); QAS8 (1.3).
inline constexpr auto kSignatures =
    for_each_type(lists::kFloatIntQuant, [](OperandType t, HalVersion v) {
      return sig(v, {t, OperandType::TENSOR_INT32}, {t});
  });
/// multiples 1-D with one entry per input axis where known; constant multiples >= 0.
inline Status validate(const OperationView& op, HalVersion&) {
  const auto rank = op.input_rank(0);
  NNHAL_TRY(rules::check_shape(op, 1, "multiples", {rank ? static_cast<std::uint32_t>(*rank) : 0u}));
  return rules::check_values_range(op, 1, "multiples", 0, INT32_MAX);
}
}  // namespace tile

}  // namespace nnhal::ops

namespace nnhal {

/// TILE in the operation table.
template <>
struct Row<OperationType::TILE> {
  static constexpr OperationInfo info = make_row(OperationType::TILE, {
      .inputs = ops::tile::kInputs,
      .outputs = ops::tile::kOutputs,
      .signatures = ops::tile::kSignatures,
      .validate = &ops::tile::validate,
  });
};

}  // namespace nnhal
