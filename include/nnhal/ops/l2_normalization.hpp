#pragma once
/// \file
/// L2_NORMALIZATION (11): divides each element by the L2 norm of its slice along an axis (the last
/// by default); quantized output fixed at scale 1/128, zeroPoint 128 (QA8) or 0 (QAS8), enforced
/// at execution.

#include <array>

#include "nnhal/ops/common/axis_rule.hpp"
#include "nnhal/ops/common/v1_0_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace l2_normalization {
inline constexpr std::array<Slot, 2> kInputs{{
    {"input", Role::Data},
    {"axis", Role::Parameter, kSlotTrailing},
}};
inline constexpr auto& kOutputs = v1_0::kSingleOutput;
/// {T} -> {T}: F32 1.0; F16, QA8 1.2; QAS8 1.3. With the axis input 1.2 (QAS8 1.3).
inline constexpr auto kSignatures = v1_0::with_trailing(v1_0::unary(std::array<TypeVersion, 4>{{
                                                            {OperandType::TENSOR_FLOAT32, HalVersion::V1_0},
                                                            {OperandType::TENSOR_FLOAT16, HalVersion::V1_2},
                                                            {OperandType::TENSOR_QUANT8_ASYMM, HalVersion::V1_2},
                                                            {OperandType::TENSOR_QUANT8_ASYMM_SIGNED, HalVersion::V1_3},
                                                        }}),
                                                        {OperandType::INT32}, HalVersion::V1_2);

/// Input rank <= 4 when known; a constant axis in [-rank, rank); without the axis input, a
/// declared rank other than 4 needs 1.2.
inline Status validate(const OperationView& op, HalVersion& version) {
  NNHAL_TRY(v1_0::check_max_rank(op, 0, 4));
  NNHAL_TRY(check_constant_axis(op, 1));
  if (op.input_count() == 1) v1_0::raise_unless_rank4(op, 0, version);
  return {};
}
}  // namespace l2_normalization

}  // namespace nnhal::ops

namespace nnhal {

/// L2_NORMALIZATION in the operation table.
template <>
struct Row<OperationType::L2_NORMALIZATION> {
  static constexpr OperationInfo info = make_row(OperationType::L2_NORMALIZATION, {
      .inputs = ops::l2_normalization::kInputs,
      .outputs = ops::l2_normalization::kOutputs,
      .signatures = ops::l2_normalization::kSignatures,
      .validate = &ops::l2_normalization::validate,
  });
};

}  // namespace nnhal
