#pragma once
/// \file
/// SPLIT (87): splits the input along `axis` into `num_splits` equal tensors; out q = in.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"
#include "nnhal/ops/common/value_rules.hpp"

namespace nnhal::ops {

namespace split {
inline constexpr std::array<Slot, 3> kInputs{{
    {"input", Role::Data},
    {"axis", Role::Parameter},
    {"num_splits", Role::Parameter},  // must divide the axis size (execution check)
}};
/// One output per split; the reference bounds their number only by num_splits at execution.
inline constexpr std::array<Slot, 1> kOutputs{{{"outputs", Role::Data, kSlotRepeated}}};
/// {T, INT32, INT32} -> {T...}: F16, F32, I32, QA8 (1.2); QAS8 (1.3).
inline constexpr auto kSignatures =
    for_each_type(lists::kFloatIntQuant, [](OperandType t, HalVersion v) {
      return sig(v, {t, OperandType::INT32, OperandType::INT32}, TypeSeq({t}, 0));
  });
/// A constant axis in [-rank, rank) for a known rank; a constant num_splits equal to the
/// number of outputs.
inline Status validate(const OperationView& op, HalVersion&) {
  NNHAL_TRY(rules::check_axes(op, 1, "axis"));
  const auto n = static_cast<std::int64_t>(op.output_count());
  return rules::check_scalar_range(op, 2, "num_splits", n, n);
}
}  // namespace split

}  // namespace nnhal::ops

namespace nnhal {

/// SPLIT in the operation table.
template <>
struct Row<OperationType::SPLIT> {
  static constexpr OperationInfo info = make_row(OperationType::SPLIT, {
      .inputs = ops::split::kInputs,
      .outputs = ops::split::kOutputs,
      .signatures = ops::split::kSignatures,
      .validate = &ops::split::validate,
  });
};

}  // namespace nnhal
