#pragma once
/// \file
/// MEAN (31): mean over the listed axes, optionally keeping reduced dimensions as 1; the output
/// keeps the input's quantization.

#include <array>

#include "nnhal/ops/common/v1_0_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"
#include "nnhal/ops/common/value_rules.hpp"

namespace nnhal::ops {

namespace mean {
inline constexpr std::array<Slot, 3> kInputs{{
    {"input", Role::Data},
    {"axes", Role::Parameter, kSlotValueRead},
    {"keep_dims", Role::Parameter},
}};
inline constexpr auto& kOutputs = v1_0::kSingleOutput;
/// {T, TENSOR_INT32, INT32} -> {T}: F32, QA8 1.1; F16 1.2; QAS8 1.3.
inline constexpr auto kSignatures = for_each_type(
    v1_0::float_quant_types(HalVersion::V1_1), [](OperandType t, HalVersion v) {
      return sig(v, {t, OperandType::TENSOR_INT32, OperandType::INT32}, {t});
  });

/// Input rank <= 4 (declared dimensions); axes 1-D where known, constant axes in [-rank, rank).
inline Status validate(const OperationView& op, HalVersion&) {
  NNHAL_TRY(v1_0::check_max_rank(op, 0, 4));
  NNHAL_TRY(rules::check_1d(op, 1, "axes"));
  return rules::check_axes(op, 1, "axes");
}
}  // namespace mean

}  // namespace nnhal::ops

namespace nnhal {

/// MEAN in the operation table.
template <>
struct Row<OperationType::MEAN> {
  static constexpr OperationInfo info = make_row(OperationType::MEAN, {
      .inputs = ops::mean::kInputs,
      .outputs = ops::mean::kOutputs,
      .signatures = ops::mean::kSignatures,
      .validate = &ops::mean::validate,
  });
};

}  // namespace nnhal
