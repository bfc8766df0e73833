#pragma once
/// \file
/// SQUEEZE (34): removes the listed size-1 dimensions (all of them when the axes input is
/// omitted); the output keeps the input's quantization.

#include <array>

#include "nnhal/ops/common/v1_0_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"
#include "nnhal/ops/common/value_rules.hpp"

namespace nnhal::ops {

namespace squeeze {
inline constexpr std::array<Slot, 2> kInputs{{
    {"input", Role::Data},
    {"axes", Role::Parameter, kSlotOmittable | kSlotValueRead},  // NO_VALUE: squeeze every size-1 dimension
}};
inline constexpr auto& kOutputs = v1_0::kSingleOutput;
/// {T, TENSOR_INT32} -> {T}: F32, QA8 1.1; F16 1.2; QAS8 1.3.
inline constexpr auto kSignatures =
    for_each_type(v1_0::float_quant_types(HalVersion::V1_1),
                  [](OperandType t, HalVersion v) { return sig(v, {t, OperandType::TENSOR_INT32}, {t}); });

/// Input rank <= 4 when known; axes 1-D, constant axes in [-rank, rank).
inline Status validate(const OperationView& op, HalVersion& version) {
  NNHAL_TRY(v1_0::validate_rank4(op, version));
  if (op.input(1).lifetime == OperandLifeTime::NO_VALUE) return {};
  NNHAL_TRY(rules::check_1d(op, 1, "axes"));
  return rules::check_axes(op, 1, "axes");
}
}  // namespace squeeze

}  // namespace nnhal::ops

namespace nnhal {

/// SQUEEZE in the operation table.
template <>
struct Row<OperationType::SQUEEZE> {
  static constexpr OperationInfo info = make_row(OperationType::SQUEEZE, {
      .inputs = ops::squeeze::kInputs,
      .outputs = ops::squeeze::kOutputs,
      .signatures = ops::squeeze::kSignatures,
      .validate = &ops::squeeze::validate,
      .flags = kOpAllowsOmitted,
  });
};

}  // namespace nnhal
