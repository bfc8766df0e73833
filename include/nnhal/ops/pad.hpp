#pragma once
/// \file
/// PAD (32): pads each dimension with `before`/`after` logical zeros (the zeroPoint for quantized
/// tensors); the output keeps the input's quantization.

#include <array>

#include "nnhal/ops/common/v1_0_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace pad {
inline constexpr std::array<Slot, 2> kInputs{{
    {"input", Role::Data},
    {"paddings", Role::Parameter},
}};
inline constexpr auto& kOutputs = v1_0::kSingleOutput;
/// {T, TENSOR_INT32} -> {T}: F32, QA8 1.1; F16 1.2; QAS8 1.3.
inline constexpr auto kSignatures =
    for_each_type(v1_0::float_quant_types(HalVersion::V1_1),
                  [](OperandType t, HalVersion v) { return sig(v, {t, OperandType::TENSOR_INT32}, {t}); });

/// Input rank <= 4 (declared dimensions); QA8 with a non-zero zeroPoint needs 1.2.
inline Status validate(const OperationView& op, HalVersion& version) {
  NNHAL_TRY(v1_0::check_max_rank(op, 0, 4));
  v1_0::raise_if_qa8_zero_point(op, version);
  return {};
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
