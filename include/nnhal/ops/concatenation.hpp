#pragma once
/// \file
/// CONCATENATION (2): joins n >= 1 tensors of the same type and rank along an axis (the last
/// input); quantized inputs are requantized to the output's parameters when they differ.

#include <array>
#include <cmath>

#include "nnhal/ops/common/v1_0_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace concatenation {
inline constexpr std::array<Slot, 2> kInputs{{
    {"input", Role::Data, kSlotRepeated},
    {"axis", Role::Parameter},
}};
inline constexpr auto& kOutputs = v1_0::kSingleOutput;
/// {T (repeated, n >= 1), INT32} -> {T}: F32, QA8 1.0; F16 1.2; QAS8 1.3.
inline constexpr auto kSignatures = for_each_type(
    v1_0::float_quant_types(HalVersion::V1_0), [](OperandType t, HalVersion v) {
      return sig(v, TypeSeq({t, OperandType::INT32}, 0), {t});
  });

/// Input ranks <= 4 when known. QA8 needs 1.2 unless every input has the output's scale and
/// zeroPoint (requantization is a 1.2 feature); QAS8 mixes them freely.
inline Status validate(const OperationView& op, HalVersion& version) {
  const std::size_t n = op.input_count() - 1;
  for (std::size_t i = 0; i < n; ++i) NNHAL_TRY(v1_0::check_max_rank(op, i, 4));
  const Operand& out = op.output(0);
  if (out.type == OperandType::TENSOR_QUANT8_ASYMM) {
    for (std::size_t i = 0; i < n; ++i) {
      const Operand& in = op.input(i);
      if (in.scale != out.scale || in.zeroPoint != out.zeroPoint) v1_0::raise(version, HalVersion::V1_2);
    }
  }
  return {};
}

}  // namespace concatenation

}  // namespace nnhal::ops

namespace nnhal {

/// CONCATENATION in the operation table.
template <>
struct Row<OperationType::CONCATENATION> {
  static constexpr OperationInfo info = make_row(OperationType::CONCATENATION, {
      .inputs = ops::concatenation::kInputs,
      .outputs = ops::concatenation::kOutputs,
      .signatures = ops::concatenation::kSignatures,
      .validate = &ops::concatenation::validate,
      .flags = kOpAllowsZeroSized,
  });
};

}  // namespace nnhal
