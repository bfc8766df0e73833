#pragma once
/// \file
/// HARD_SWISH (99): `x * max(0, min(6, x + 3)) / 6`; output quantization may differ from the
/// input's. No rank limit; zero-sized inputs allowed.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace hard_swish {
inline constexpr auto& kInputs = lists::kUnaryInputs;
inline constexpr auto& kOutputs = lists::kSingleOutput;
inline constexpr auto kSignatures = lists::unary(std::array<TypeVersion, 4>{{
    {OperandType::TENSOR_FLOAT16, HalVersion::V1_3},
    {OperandType::TENSOR_FLOAT32, HalVersion::V1_3},
    {OperandType::TENSOR_QUANT8_ASYMM, HalVersion::V1_3},
    {OperandType::TENSOR_QUANT8_ASYMM_SIGNED, HalVersion::V1_3},
}});
}  // namespace hard_swish

}  // namespace nnhal::ops

namespace nnhal {

/// HARD_SWISH in the operation table.
template <>
struct Row<OperationType::HARD_SWISH> {
  static constexpr OperationInfo info = make_row(OperationType::HARD_SWISH, {
      .inputs = ops::hard_swish::kInputs,
      .outputs = ops::hard_swish::kOutputs,
      .signatures = ops::hard_swish::kSignatures,
      .flags = kOpAllowsZeroSized,
  });
};

}  // namespace nnhal
