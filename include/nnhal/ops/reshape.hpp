#pragma once
/// \file
/// RESHAPE (22): the input's elements, unchanged, under the shape held in input 1 (one entry may
/// be -1: inferred from the element count). Output quantization = input quantization.

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace reshape {

inline constexpr std::array<Slot, 2> kInputs{{
    {"input", Role::Data},
    {"shape", Role::Parameter, kSlotValueRead},  // shape inference reads its value
}};
inline constexpr std::array<Slot, 1> kOutputs{{{"output", Role::Data}}};

/// {T, TENSOR_INT32} -> {T}. TENSOR_INT32 data is a feature level 6 extension, not HAL 1.3.
inline constexpr auto kSignatures = for_each_type(
    std::array<TypeVersion, 4>{{
        {OperandType::TENSOR_FLOAT32, HalVersion::V1_0},
        {OperandType::TENSOR_QUANT8_ASYMM, HalVersion::V1_0},
        {OperandType::TENSOR_FLOAT16, HalVersion::V1_2},
        {OperandType::TENSOR_QUANT8_ASYMM_SIGNED, HalVersion::V1_3},
    }},
    [](OperandType t, HalVersion v) { return sig(v, {t, OperandType::TENSOR_INT32}, {t}); });

/// Input rank <= 4, checked on the declared dimension count (as the reference does).
inline Status validate(const OperationView& op, HalVersion&) {
  if (const std::size_t rank = op.input(0).dimensions.size(); rank > 4)
    return NNHAL_INVALID("input 0 has rank %zu, RESHAPE supports at most 4", rank);
  return {};
}

}  // namespace reshape

}  // namespace nnhal::ops

namespace nnhal {

/// RESHAPE in the operation table.
template <>
struct Row<OperationType::RESHAPE> {
  static constexpr OperationInfo info = make_row(OperationType::RESHAPE, {
      .inputs = ops::reshape::kInputs,
      .outputs = ops::reshape::kOutputs,
      .signatures = ops::reshape::kSignatures,
      .validate = &ops::reshape::validate,
  });
};

}  // namespace nnhal
