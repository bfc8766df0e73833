#pragma once
/// \file
/// Shared parts of the operations that produce TENSOR_BOOL8: the six comparisons (EQUAL,
/// GREATER, GREATER_EQUAL, LESS, LESS_EQUAL, NOT_EQUAL) and LOGICAL_AND / LOGICAL_OR /
/// LOGICAL_NOT: slots and signatures. Their kernels are in nnhal/kernels/common/boolean_ops.hpp.

#include <array>
#include <cstddef>
#include <cstdint>

#include "nnhal/interface/signature.hpp"

namespace nnhal::ops::boolean_ops {

inline constexpr std::array<Slot, 2> kBinaryInputs{{
    {"input0", Role::Data},
    {"input1", Role::Data},
}};
inline constexpr std::array<Slot, 1> kUnaryInputs{{{"input", Role::Data}}};
inline constexpr std::array<Slot, 1> kOutputs{{{"output", Role::Data}}};

/// Comparisons: {T, T} -> {TENSOR_BOOL8}.
inline constexpr auto kComparisonSignatures = for_each_type(
    std::array<TypeVersion, 6>{{
        {OperandType::TENSOR_BOOL8, HalVersion::V1_2},
        {OperandType::TENSOR_FLOAT16, HalVersion::V1_2},
        {OperandType::TENSOR_FLOAT32, HalVersion::V1_2},
        {OperandType::TENSOR_INT32, HalVersion::V1_2},
        {OperandType::TENSOR_QUANT8_ASYMM, HalVersion::V1_2},
        {OperandType::TENSOR_QUANT8_ASYMM_SIGNED, HalVersion::V1_3},
    }},
    [](OperandType t, HalVersion v) { return sig(v, {t, t}, {OperandType::TENSOR_BOOL8}); });

/// LOGICAL_AND / LOGICAL_OR: {B8, B8} -> {B8}.
inline constexpr std::array<Signature, 1> kLogicalBinarySignatures{{
    sig(HalVersion::V1_2, {OperandType::TENSOR_BOOL8, OperandType::TENSOR_BOOL8},
        {OperandType::TENSOR_BOOL8}),
}};
/// LOGICAL_NOT: {B8} -> {B8}.
inline constexpr std::array<Signature, 1> kLogicalNotSignatures{{
    sig(HalVersion::V1_2, {OperandType::TENSOR_BOOL8}, {OperandType::TENSOR_BOOL8}),
}};

}  // namespace nnhal::ops::boolean_ops
