#pragma once
/// \file
/// Tensor-type lists and small signature builders shared by the operations added in HAL 1.2 and
/// 1.3 (ABS ... RANK): the recurring "F16, F32 (, I32) (, QA8) since 1.2; QAS8 since 1.3" sets,
/// {T} -> {T} and {T, T} -> {T} signatures, the box/ROI coordinate type of quantized detection
/// operations, and a known-rank limit check.

#include <array>
#include <cstddef>
#include <cstdint>

#include "nnhal/core/result.hpp"
#include "nnhal/interface/signature.hpp"
#include "nnhal/interface/operation_view.hpp"

namespace nnhal::ops::lists {

/// F16, F32 (1.2).
inline constexpr std::array<TypeVersion, 2> kFloat{{
    {OperandType::TENSOR_FLOAT16, HalVersion::V1_2},
    {OperandType::TENSOR_FLOAT32, HalVersion::V1_2},
}};

/// F16, F32, QA8 (1.2); QAS8 (1.3).
inline constexpr std::array<TypeVersion, 4> kFloatQuant{{
    {OperandType::TENSOR_FLOAT16, HalVersion::V1_2},
    {OperandType::TENSOR_FLOAT32, HalVersion::V1_2},
    {OperandType::TENSOR_QUANT8_ASYMM, HalVersion::V1_2},
    {OperandType::TENSOR_QUANT8_ASYMM_SIGNED, HalVersion::V1_3},
}};

/// F16, F32, I32, QA8 (1.2); QAS8 (1.3).
inline constexpr std::array<TypeVersion, 5> kFloatIntQuant{{
    {OperandType::TENSOR_FLOAT16, HalVersion::V1_2},
    {OperandType::TENSOR_FLOAT32, HalVersion::V1_2},
    {OperandType::TENSOR_INT32, HalVersion::V1_2},
    {OperandType::TENSOR_QUANT8_ASYMM, HalVersion::V1_2},
    {OperandType::TENSOR_QUANT8_ASYMM_SIGNED, HalVersion::V1_3},
}};

/// One data input, one output: the slots of the unary elementwise operations.
inline constexpr std::array<Slot, 1> kUnaryInputs{{{"input", Role::Data}}};
/// Two data inputs (broadcast against each other).
inline constexpr std::array<Slot, 2> kBinaryInputs{{
    {"input0", Role::Data},
    {"input1", Role::Data},
}};
/// The single output of most operations.
inline constexpr std::array<Slot, 1> kSingleOutput{{{"output", Role::Data}}};

/// `seq` followed by `n` copies of `t` (long same-type input lists: the LSTM family).
constexpr TypeSeq append_n(TypeSeq seq, OperandType t, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) seq.push_back(t);
  return seq;
}

/// {T} -> {T} for each listed tensor type.
template <std::size_t N>
constexpr auto unary(const std::array<TypeVersion, N>& types) {
  return for_each_type(types, [](OperandType t, HalVersion v) { return sig(v, {t}, {t}); });
}

/// {T, T} -> {T} for each listed tensor type.
template <std::size_t N>
constexpr auto binary(const std::array<TypeVersion, N>& types) {
  return for_each_type(types, [](OperandType t, HalVersion v) { return sig(v, {t, t}, {t}); });
}

/// True for the quantized main tensor types (QA8, QAS8).
constexpr bool is_quant8(OperandType t) {
  return t == OperandType::TENSOR_QUANT8_ASYMM || t == OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
}

/// Type of box / ROI coordinate tensors next to a main tensor of type `t`: the same float type
/// for F16/F32, TENSOR_QUANT16_ASYMM (scale 0.125, zeroPoint 0) for QA8/QAS8.
constexpr OperandType box_type_for(OperandType t) {
  return is_quant8(t) ? OperandType::TENSOR_QUANT16_ASYMM : t;
}

/// Input `i` has rank <= `max` when its rank is known (unknown rank is checked at execution).
inline Status check_max_rank(const OperationView& op, std::size_t i, std::size_t max) {
  if (auto r = op.input_rank(i); r && *r > max)
    return NNHAL_INVALID("input %zu has rank %zu, at most %zu is supported", i, *r, max);
  return {};
}

}  // namespace nnhal::ops::lists
