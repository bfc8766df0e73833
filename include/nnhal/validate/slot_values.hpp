#pragma once
/// \file
/// The generic check of scalar parameters with a closed set of values, driven by the slots of
/// the operation's row: a constant fused activation, implicit padding scheme, BOOL flag or
/// other enumerated INT32 (a slot's `values`) outside its set is refused at validation, so a
/// fused activation of 7 no longer passes validation and preparation to fail only when running.
/// Values given at run time (model inputs) are still checked by the kernels.

#include <cstdint>
#include <optional>
#include <span>

#include "nnhal/core/format.hpp"
#include "nnhal/core/result.hpp"
#include "nnhal/interface/operation_info.hpp"
#include "nnhal/interface/operation_view.hpp"

namespace nnhal {

/// The closed set of values of `slot` holding an operand of type `type`, or 0 for none: the
/// slot's own set, else its role's default, else {0, 1} for any BOOL.
constexpr ValueSet closed_values(const Slot& slot, OperandType type) noexcept {
  if (type != OperandType::INT32 && type != OperandType::BOOL) return 0;
  if (slot.values != 0) return slot.values;
  if (slot.role == Role::Activation && type == OperandType::INT32) return kFuseCodes;
  if (slot.role == Role::Padding && type == OperandType::INT32) return kPaddingCodes;
  return type == OperandType::BOOL ? kFlagValues : 0;
}

/// The slot of input `i` of `count` inputs laid out as `slots` (a kSlotRepeated slot stands for
/// `count - slots.size() + 1` inputs), or nullptr when `i` lies beyond the slots.
inline const Slot* slot_at(std::span<const Slot> slots, std::size_t i, std::size_t count) noexcept {
  for (std::size_t r = 0; r < slots.size(); ++r) {
    if ((slots[r].flags & kSlotRepeated) == 0 || count < slots.size()) continue;
    const std::size_t extra = count - slots.size();
    if (i < r) return &slots[i];
    if (i <= r + extra) return &slots[r];
    i -= extra;
    break;
  }
  return i < slots.size() ? &slots[i] : nullptr;
}

/// INVALID_ARGUMENT naming the input position, slot, operand and value when a constant scalar
/// input of `op` lies outside its slot's closed set. Run after the signature matched (the
/// operand types are then the row's). Control-flow rows pass: their inputs are data.
inline Status check_slot_values(const OperationInfo& info, const OperationView& op) {
  if (info.has(kOpControlFlow)) return {};
  const std::span<const Slot> slots = input_slots(info, op);
  const std::size_t n = op.input_count();
  for (std::size_t i = 0; i < n; ++i) {
    const Slot* slot = slot_at(slots, i, n);
    if (slot == nullptr) continue;
    const ValueSet set = closed_values(*slot, op.input(i).type);
    if (set == 0) continue;
    std::optional<std::int64_t> value;
    if (auto v = op.constant_scalar<OperandType::INT32>(i)) value = *v;
    else if (auto b = op.constant_scalar<OperandType::BOOL>(i)) value = *b;
    if (!value || (*value >= 0 && *value < 32 && ((set >> *value) & 1u) != 0)) continue;
    char allowed[96];
    std::size_t at = 0;
    for (int v = 0; v < 32; ++v) {
      if (((set >> v) & 1u) == 0) continue;
      const std::size_t w = nnhal::format(allowed + at, sizeof allowed - at, at == 0 ? "%d" : ", %d", v);
      if (w >= sizeof allowed - at) break;
      at += w;
    }
    return NNHAL_INVALID("input %zu (%.*s, operand %" PRIu32 ") is %lld, it must be one of {%s}", i,
                         static_cast<int>(slot->name.size()), slot->name.data(), op.operation.inputs[i],
                         static_cast<long long>(*value), allowed);
  }
  return {};
}

}  // namespace nnhal
