#pragma once
/// \file
/// DEPTH_TO_SPACE (5): moves blocks of depth into spatial blocks, `[b, h, w, d]` ->
/// `[b, h*bs, w*bs, d/(bs*bs)]`; the output keeps the input's quantization.

#include <array>

#include "nnhal/ops/common/v1_0_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"
#include "nnhal/ops/common/value_rules.hpp"

namespace nnhal::ops {

namespace depth_to_space {
inline constexpr std::array<Slot, 3> kInputs{{
    {"input", Role::Data},
    {"block_size", Role::Parameter},
    {"layout", Role::Layout, kSlotTrailing},
}};
inline constexpr auto& kOutputs = v1_0::kSingleOutput;
/// {T, INT32} -> {T}: F32, QA8 1.0; F16 1.2; QAS8 1.3; with the layout flag 1.2. Rank 4 and
/// block size are runtime checks.
inline constexpr auto kSignatures = v1_0::with_trailing(
    for_each_type(v1_0::float_quant_types(HalVersion::V1_0),
                  [](OperandType t, HalVersion v) { return sig(v, {t, OperandType::INT32}, {t}); }),
    {OperandType::BOOL}, HalVersion::V1_2);
/// Input rank 4 where known; a constant block_size >= 1.
inline Status validate(const OperationView& op, HalVersion&) {
  NNHAL_TRY(v1_0::check_rank(op, 0, 4));
  return rules::check_scalar_range(op, 1, "block_size", 1, INT32_MAX);
}
}  // namespace depth_to_space

}  // namespace nnhal::ops

namespace nnhal {

/// DEPTH_TO_SPACE in the operation table.
template <>
struct Row<OperationType::DEPTH_TO_SPACE> {
  static constexpr OperationInfo info = make_row(OperationType::DEPTH_TO_SPACE, {
      .inputs = ops::depth_to_space::kInputs,
      .outputs = ops::depth_to_space::kOutputs,
      .signatures = ops::depth_to_space::kSignatures,
      .validate = &ops::depth_to_space::validate,
  });
};

}  // namespace nnhal
