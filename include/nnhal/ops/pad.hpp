#pragma once
/// \file
/// PAD (32): pads each dimension with `before`/`after` logical zeros (the zeroPoint for quantized
/// tensors); the output keeps the input's quantization.

#include <array>

#include "nnhal/ops/common/v1_0_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"
#include "nnhal/ops/common/value_rules.hpp"

namespace nnhal::ops {

namespace pad {
inline constexpr std::array<Slot, 2> kInputs{{
    {"input", Role::Data},
    {"paddings", Role::Parameter, kSlotValueRead},
}};
inline constexpr auto& kOutputs = v1_0::kSingleOutput;
/// {T, TENSOR_INT32} -> {T}: F32, QA8 1.1; F16 1.2; QAS8 1.3.
inline constexpr auto kSignatures =
    for_each_type(v1_0::float_quant_types(HalVersion::V1_1),
                  [](OperandType t, HalVersion v) { return sig(v, {t, OperandType::TENSOR_INT32}, {t}); });

/// Paddings of shape [rank, 2] where known; constant paddings >= 0.
inline Status check_paddings(const OperationView& op) {
  const auto rank = op.input_rank(0);
  NNHAL_TRY(rules::check_shape(op, 1, "paddings", {rank ? static_cast<std::uint32_t>(*rank) : 0u, 2u}));
  return rules::check_values_range(op, 1, "paddings", 0, INT32_MAX);
}

/// Input rank <= 4 (declared dimensions); QA8 with a non-zero zeroPoint needs 1.2; paddings of
/// shape [rank, 2] where known, constant paddings >= 0.
inline Status validate(const OperationView& op, HalVersion& version) {
  NNHAL_TRY(v1_0::check_max_rank(op, 0, 4));
  v1_0::raise_if_qa8_zero_point(op, version);
  return check_paddings(op);
}
}  // namespace pad

}  // namespace nnhal::ops

namespace nnhal {

/// PAD in the operation table.
template <>
struct Row<OperationType::PAD> {
  static constexpr OperationInfo info = make_row(OperationType::PAD, {
      .inputs = ops::pad::kInputs,
      .outputs = ops::pad::kOutputs,
      .signatures = ops::pad::kSignatures,
      .validate = &ops::pad::validate,
  });
};

}  // namespace nnhal
