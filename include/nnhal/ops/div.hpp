#pragma once
/// \file
/// DIV (30): elementwise quotient with broadcasting and a fused activation. TENSOR_INT32 is
/// floor division with x / 0 = 0.

#include "nnhal/ops/common/arithmetic.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace div {
// Reference quirk (HAL13.md i.8): TENSOR_QUANT8_ASYMM_SIGNED passes the reference validation at
// HAL 1.3 but no kernel exists; it is described here so validation agrees with the reference,
// and nnhal/kernels/div.hpp lists it under no_kernel (the support query reports it unsupported).
inline constexpr auto kSignatures = arithmetic::signatures(std::array<TypeVersion, 4>{{
    {OperandType::TENSOR_FLOAT32, HalVersion::V1_1},
    {OperandType::TENSOR_FLOAT16, HalVersion::V1_2},
    {OperandType::TENSOR_INT32, HalVersion::V1_3},
    {OperandType::TENSOR_QUANT8_ASYMM_SIGNED, HalVersion::V1_3},
}});

inline Status validate(const OperationView& op, HalVersion&) { return arithmetic::validate_ranks(op); }

}  // namespace div

}  // namespace nnhal::ops

namespace nnhal {

/// DIV in the operation table.
template <>
struct Row<OperationType::DIV> {
  static constexpr OperationInfo info = make_row(OperationType::DIV, {
      .inputs = ops::arithmetic::kInputs,
      .outputs = ops::arithmetic::kOutputs,
      .signatures = ops::div::kSignatures,
      .validate = &ops::div::validate,
      .flags = kOpAllowsZeroSized,
  });
};

}  // namespace nnhal
