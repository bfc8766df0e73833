#pragma once
/// \file
/// Shared row parts of ADD, SUB, MUL and DIV: slots, signatures and validation. Their kernels
/// are in nnhal/kernels/common/arithmetic.hpp.

#include <array>
#include <cstdint>

#include "nnhal/interface/signature.hpp"
#include "nnhal/interface/operation_view.hpp"

namespace nnhal::ops::arithmetic {

inline constexpr std::array<Slot, 3> kInputs{{
    {"input0", Role::Data},
    {"input1", Role::Data},
    {"activation", Role::Activation},
}};
inline constexpr std::array<Slot, 1> kOutputs{{{"output", Role::Data}}};

/// {T, T, INT32} -> {T} for each listed tensor type.
template <std::size_t N>
constexpr auto signatures(const std::array<TypeVersion, N>& types) {
  return for_each_type(types, [](OperandType t, HalVersion v) {
    return sig(v, {t, t, OperandType::INT32}, {t});
  });
}

/// Rank <= 4 for both inputs when known.
inline Status validate_ranks(const OperationView& op) {
  for (std::size_t i = 0; i < 2; ++i) {
    if (auto r = op.input_rank(i); r && *r > 4)
      return NNHAL_INVALID("input %zu has rank %zu, at most 4 is supported", i, *r);
  }
  return {};
}

}  // namespace nnhal::ops::arithmetic
