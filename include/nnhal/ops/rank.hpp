#pragma once
/// \file
/// RANK (101): the rank of the input as an INT32 scalar.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace rank {
inline constexpr auto& kInputs = lists::kUnaryInputs;
/// An INT32 **scalar**.
inline constexpr std::array<Slot, 1> kOutputs{{{"rank", Role::Data}}};
/// Every tensor type Rank.cpp accepts, all since 1.3.
inline constexpr std::array<TypeVersion, 10> kTypes{{
    {OperandType::TENSOR_FLOAT16, HalVersion::V1_3},
    {OperandType::TENSOR_FLOAT32, HalVersion::V1_3},
    {OperandType::TENSOR_INT32, HalVersion::V1_3},
    {OperandType::TENSOR_QUANT8_ASYMM, HalVersion::V1_3},
    {OperandType::TENSOR_QUANT16_SYMM, HalVersion::V1_3},
    {OperandType::TENSOR_BOOL8, HalVersion::V1_3},
    {OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL, HalVersion::V1_3},
    {OperandType::TENSOR_QUANT16_ASYMM, HalVersion::V1_3},
    {OperandType::TENSOR_QUANT8_SYMM, HalVersion::V1_3},
    {OperandType::TENSOR_QUANT8_ASYMM_SIGNED, HalVersion::V1_3},
}};
/// {T} -> {INT32}.
inline constexpr auto kSignatures = for_each_type(
    kTypes, [](OperandType t, HalVersion v) { return sig(v, {t}, {OperandType::INT32}); });
}  // namespace rank

}  // namespace nnhal::ops

namespace nnhal {

/// RANK in the operation table.
template <>
struct Row<OperationType::RANK> {
  static constexpr OperationInfo info = make_row(OperationType::RANK, {
      .inputs = ops::rank::kInputs,
      .outputs = ops::rank::kOutputs,
      .signatures = ops::rank::kSignatures,
  });
};

}  // namespace nnhal
