#pragma once
/// \file
/// SUB (36): elementwise difference with broadcasting and a fused activation.

#include "nnhal/ops/common/arithmetic.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace sub {
inline constexpr auto kSignatures = arithmetic::signatures(std::array<TypeVersion, 5>{{
    {OperandType::TENSOR_FLOAT32, HalVersion::V1_1},
    {OperandType::TENSOR_FLOAT16, HalVersion::V1_2},
    {OperandType::TENSOR_QUANT8_ASYMM, HalVersion::V1_2},
    {OperandType::TENSOR_QUANT8_ASYMM_SIGNED, HalVersion::V1_3},
    {OperandType::TENSOR_INT32, HalVersion::V1_3},
}});

inline Status validate(const OperationView& op, HalVersion&) { return arithmetic::validate_ranks(op); }

}  // namespace sub

}  // namespace nnhal::ops

namespace nnhal {

/// SUB in the operation table.
template <>
struct Row<OperationType::SUB> {
  static constexpr OperationInfo info = make_row(OperationType::SUB, {
      .inputs = ops::arithmetic::kInputs,
      .outputs = ops::arithmetic::kOutputs,
      .signatures = ops::sub::kSignatures,
      .validate = &ops::sub::validate,
      .flags = kOpAllowsZeroSized,
  });
};

}  // namespace nnhal
