#pragma once
/// \file
/// Operand slots and signatures shared by AVERAGE_POOL_2D, L2_POOL_2D and MAX_POOL_2D: an
/// explicit-padding form (10 inputs) and an implicit-padding form (7 inputs), each with an
/// optional trailing layout flag (HAL 1.2).

#include <array>
#include <cstddef>

#include "nnhal/ops/common/v1_0_signatures.hpp"
#include "nnhal/interface/signature.hpp"

namespace nnhal::ops::pool {

/// Inputs of the explicit-padding form (the longest); `kImplicitInputs` lists the other form.
inline constexpr std::array<Slot, 11> kInputs{{
    {"input", Role::Data},
    {"pad_left", Role::Parameter},
    {"pad_right", Role::Parameter},
    {"pad_top", Role::Parameter},
    {"pad_bottom", Role::Parameter},
    {"stride_w", Role::Parameter},
    {"stride_h", Role::Parameter},
    {"filter_w", Role::Parameter},
    {"filter_h", Role::Parameter},
    {"activation", Role::Activation},
    {"layout", Role::Layout, kSlotTrailing},
}};

/// Inputs of the implicit-padding form.
inline constexpr std::array<Slot, 8> kImplicitInputs{{
    {"input", Role::Data},
    {"padding_scheme", Role::Padding},
    {"stride_w", Role::Parameter},
    {"stride_h", Role::Parameter},
    {"filter_w", Role::Parameter},
    {"filter_h", Role::Parameter},
    {"activation", Role::Activation},
    {"layout", Role::Layout, kSlotTrailing},
}};

inline constexpr std::array<Slot, 1> kOutputs = v1_0::kSingleOutput;

/// For each tensor type T: {T, 6 x INT32} (implicit) and {T, 9 x INT32} (explicit) -> {T}, then
/// both with a trailing BOOL layout flag, which needs 1.2.
template <std::size_t N>
constexpr auto signatures(const std::array<TypeVersion, N>& types) {
  using enum OperandType;
  std::array<Signature, 2 * N> base{};
  for (std::size_t i = 0; i < N; ++i) {
    const OperandType t = types[i].type;
    const HalVersion v = types[i].version;
    base[2 * i] = sig(v, {t, INT32, INT32, INT32, INT32, INT32, INT32}, {t});
    base[2 * i + 1] = sig(v, {t, INT32, INT32, INT32, INT32, INT32, INT32, INT32, INT32, INT32}, {t});
  }
  return v1_0::with_trailing(base, {BOOL}, HalVersion::V1_2);
}

}  // namespace nnhal::ops::pool
