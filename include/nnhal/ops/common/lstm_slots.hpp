#pragma once
/// \file
/// Shared by the LSTM family: the slots of an LSTM cell's weight, bias and layer-norm inputs (in
/// the order of LSTM inputs 1..17 and 23..26) and the static check of the optional-group rules:
/// CIFG (no input gate), peephole, projection and layer-norm weights all present or all omitted.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "nnhal/core/result.hpp"
#include "nnhal/interface/signature.hpp"
#include "nnhal/interface/operation_view.hpp"

namespace nnhal::ops::lstm_cell {

/// LSTM inputs 1..17: gate weights, peepholes, gate biases, projection (optional ones NO_VALUE).
inline constexpr std::array<Slot, 17> kWeightSlots{{
    {"input_to_input_weights", Role::Weights, kSlotOmittable},
    {"input_to_forget_weights", Role::Weights},
    {"input_to_cell_weights", Role::Weights},
    {"input_to_output_weights", Role::Weights},
    {"recurrent_to_input_weights", Role::Weights, kSlotOmittable},
    {"recurrent_to_forget_weights", Role::Weights},
    {"recurrent_to_cell_weights", Role::Weights},
    {"recurrent_to_output_weights", Role::Weights},
    {"cell_to_input_weights", Role::Weights, kSlotOmittable},
    {"cell_to_forget_weights", Role::Weights, kSlotOmittable},
    {"cell_to_output_weights", Role::Weights, kSlotOmittable},
    {"input_gate_bias", Role::Bias, kSlotOmittable},
    {"forget_gate_bias", Role::Bias},
    {"cell_bias", Role::Bias},
    {"output_gate_bias", Role::Bias},
    {"projection_weights", Role::Weights, kSlotOmittable},
    {"projection_bias", Role::Bias, kSlotOmittable},
}};

/// Layer-normalization weights of the input, forget, cell and output gates (each optional), with
/// `extra_flags` added (kSlotTrailing where the four may be left out of the list).
constexpr std::array<Slot, 4> layer_norm_slots(std::uint8_t extra_flags = kSlotRequired) {
  const auto f = static_cast<std::uint8_t>(kSlotOmittable | extra_flags);
  return {{
      {"input_layer_norm_weights", Role::Weights, f},
      {"forget_layer_norm_weights", Role::Weights, f},
      {"cell_layer_norm_weights", Role::Weights, f},
      {"output_layer_norm_weights", Role::Weights, f},
  }};
}

/// Concatenates slot arrays.
template <std::size_t... N>
constexpr auto join_slots(const std::array<Slot, N>&... parts) {
  std::array<Slot, (N + ... + 0)> out{};
  std::size_t at = 0;
  ((std::copy(parts.begin(), parts.end(), out.begin() + static_cast<std::ptrdiff_t>(at)), at += N), ...);
  return out;
}

/// Input positions of a cell's optional tensors within one operation.
struct OptionalInputs {
  std::size_t input_to_input, recurrent_to_input;
  std::size_t cell_to_input, cell_to_forget, cell_to_output;
  std::size_t input_gate_bias, projection_weights, projection_bias;
  std::size_t input_layer_norm;  ///< first of the four layer-norm inputs
};

/// The positions in LSTM (and UNIDIRECTIONAL_SEQUENCE_LSTM up to its layer-norm inputs).
inline constexpr OptionalInputs kLstmPositions{1, 5, 9, 10, 11, 12, 16, 17, 23};

/// What validation can tell about an optional input: NO_VALUE is surely absent; a subgraph input
/// may still be omitted by the request (hasNoValue), so it is unknown; anything else is present.
enum class Presence : std::uint8_t { Absent, Present, Unknown };

inline Presence presence(const OperationView& op, std::size_t i) noexcept {
  const OperandLifeTime l = op.input(i).lifetime;
  if (l == OperandLifeTime::NO_VALUE) return Presence::Absent;
  if (l == OperandLifeTime::SUBGRAPH_INPUT) return Presence::Unknown;
  return Presence::Present;
}

/// Fails when one input of `group` is surely present and another surely omitted.
inline Status all_or_none(const OperationView& op, std::initializer_list<std::size_t> group, const char* what) {
  const std::size_t none = static_cast<std::size_t>(-1);
  std::size_t absent = none, present = none;
  for (std::size_t i : group) {
    const Presence p = presence(op, i);
    if (p == Presence::Absent && absent == none) absent = i;
    if (p == Presence::Present && present == none) present = i;
  }
  if (absent != none && present != none)
    return NNHAL_INVALID("%s: input %zu is present but input %zu is omitted (all or none are required)",
                         what, present, absent);
  return {};
}

/// The documented optional-group rules, checked as far as lifetimes tell (a rule that depends on
/// an operand the request may still omit is left to execution). The reference CPU executor
/// checks the same rules when it prepares the cell; tolerated as there: a cell-to-input peephole
/// given under CIFG (it is ignored).
inline Status check_optional_groups(const OperationView& op, const OptionalInputs& p, bool has_layer_norm) {
  NNHAL_TRY(all_or_none(op, {p.input_to_input, p.recurrent_to_input, p.input_gate_bias},
                        "input gate weights and bias (CIFG when omitted)"));
  Presence gate = Presence::Unknown;
  for (std::size_t i : {p.input_to_input, p.recurrent_to_input, p.input_gate_bias})
    if (const Presence q = presence(op, i); q != Presence::Unknown) gate = q;

  NNHAL_TRY(all_or_none(op, {p.cell_to_forget, p.cell_to_output}, "peephole weights"));
  if (gate == Presence::Present || presence(op, p.cell_to_input) == Presence::Present)
    NNHAL_TRY(all_or_none(op, {p.cell_to_input, p.cell_to_forget, p.cell_to_output}, "peephole weights"));

  if (presence(op, p.projection_bias) == Presence::Present &&
      presence(op, p.projection_weights) == Presence::Absent)
    return NNHAL_INVALID("input %zu (projection bias) is present without input %zu (projection weights)",
                         p.projection_bias, p.projection_weights);

  if (has_layer_norm) {
    const std::size_t ln = p.input_layer_norm;
    NNHAL_TRY(all_or_none(op, {ln + 1, ln + 2, ln + 3}, "layer-norm weights"));
    if (gate == Presence::Absent && presence(op, ln) == Presence::Present)
      return NNHAL_INVALID("input %zu (input layer-norm weights) must be omitted under CIFG (input %zu omitted)",
                           ln, p.input_to_input);
    if (gate == Presence::Present)
      NNHAL_TRY(all_or_none(op, {ln, ln + 1, ln + 2, ln + 3}, "layer-norm weights"));
  }
  return {};
}

}  // namespace nnhal::ops::lstm_cell
