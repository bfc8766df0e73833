#pragma once
/// \file
/// CHANNEL_SHUFFLE (46): splits `axis` into `num_groups` groups and transposes them
/// (`out[k * groups + g] = in[g * group_size + k]`); out q = in.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"
#include "nnhal/ops/common/value_rules.hpp"

namespace nnhal::ops {

namespace channel_shuffle {
inline constexpr std::array<Slot, 3> kInputs{{
    {"input", Role::Data},
    {"num_groups", Role::Parameter},  // INT32 > 0 dividing the axis size, checked at execution
    {"axis", Role::Parameter},        // INT32 in [-rank, rank), checked at execution
}};
inline constexpr auto& kOutputs = lists::kSingleOutput;
/// {T, INT32, INT32} -> {T}: F16, F32, QA8 (1.2); QAS8 (1.3).
inline constexpr auto kSignatures =
    for_each_type(lists::kFloatQuant, [](OperandType t, HalVersion v) {
      return sig(v, {t, OperandType::INT32, OperandType::INT32}, {t});
  });

/// Input rank <= 4 when known (ChannelShuffle.cpp validate); a constant num_groups >= 1, a
/// constant axis in [-rank, rank).
inline Status validate(const OperationView& op, HalVersion&) {
  NNHAL_TRY(lists::check_max_rank(op, 0, 4));
  NNHAL_TRY(rules::check_scalar_range(op, 1, "num_groups", 1, INT32_MAX));
  return rules::check_axes(op, 2, "axis");
}
}  // namespace channel_shuffle

}  // namespace nnhal::ops

namespace nnhal {

/// CHANNEL_SHUFFLE in the operation table.
template <>
struct Row<OperationType::CHANNEL_SHUFFLE> {
  static constexpr OperationInfo info = make_row(OperationType::CHANNEL_SHUFFLE, {
      .inputs = ops::channel_shuffle::kInputs,
      .outputs = ops::channel_shuffle::kOutputs,
      .signatures = ops::channel_shuffle::kSignatures,
      .validate = &ops::channel_shuffle::validate,
  });
};

}  // namespace nnhal
