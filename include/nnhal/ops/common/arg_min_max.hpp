#pragma once
/// \file
/// Shared table parts of ARGMAX and ARGMIN: index of the largest / smallest value along an axis.

#include <array>

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/signature.hpp"

namespace nnhal::ops::arg_min_max {

inline constexpr std::array<Slot, 2> kInputs{{
    {"input", Role::Data},
    {"axis", Role::Parameter},  // INT32 in [-rank, rank), checked at execution
}};
/// TENSOR_INT32 with the axis removed (a 1-D input gives shape [1]).
inline constexpr std::array<Slot, 1> kOutputs{{{"output", Role::Data}}};

/// {T, INT32} -> {TENSOR_INT32}: F16, F32, I32, QA8 (1.2); QAS8 (1.3).
inline constexpr auto kSignatures =
    for_each_type(lists::kFloatIntQuant, [](OperandType t, HalVersion v) {
      return sig(v, {t, OperandType::INT32}, {OperandType::TENSOR_INT32});
    });

}  // namespace nnhal::ops::arg_min_max
