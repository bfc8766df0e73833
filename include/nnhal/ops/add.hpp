#pragma once
/// \file
/// ADD (0): elementwise sum with broadcasting and a fused activation.

#include "nnhal/ops/common/arithmetic.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace add {
inline constexpr auto kSignatures = arithmetic::signatures(std::array<TypeVersion, 5>{{
    {OperandType::TENSOR_FLOAT32, HalVersion::V1_0},
    {OperandType::TENSOR_QUANT8_ASYMM, HalVersion::V1_0},
    {OperandType::TENSOR_FLOAT16, HalVersion::V1_2},
    {OperandType::TENSOR_QUANT8_ASYMM_SIGNED, HalVersion::V1_3},
    {OperandType::TENSOR_INT32, HalVersion::V1_3},
}});

inline Status validate(const OperationView& op, HalVersion&) { return arithmetic::validate_ranks(op); }

}  // namespace add

}  // namespace nnhal::ops

namespace nnhal {

/// ADD in the operation table.
template <>
struct Row<OperationType::ADD> {
  static constexpr OperationInfo info = make_row(OperationType::ADD, {
      .inputs = ops::arithmetic::kInputs,
      .outputs = ops::arithmetic::kOutputs,
      .signatures = ops::add::kSignatures,
      .validate = &ops::add::validate,
      .flags = kOpAllowsZeroSized,
  });
};

}  // namespace nnhal
