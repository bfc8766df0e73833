#pragma once
/// \file
/// BIDIRECTIONAL_SEQUENCE_LSTM (42): forward and backward LSTM cells over a 3-D input sequence,
/// with optional auxiliary input (cross or parallel linking), merged outputs and (1.3) final
/// state outputs.

#include "nnhal/ops/common/lstm_slots.hpp"
#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace bidirectional_sequence_lstm {
/// Positions of the optional tensors of each direction's cell (layer norm at 53 / 57).
inline constexpr lstm_cell::OptionalInputs kFw{1, 5, 9, 10, 11, 12, 16, 17, 53};
inline constexpr lstm_cell::OptionalInputs kBw{18, 22, 26, 27, 28, 29, 33, 34, 57};
/// The auxiliary input and the first of each direction's four auxiliary weights (input, forget,
/// cell and output gates).
inline constexpr std::size_t kAuxInput = 39, kFwAux = 40, kBwAux = 44;

/// 0 input; 1..17 forward and 18..34 backward cell tensors in LSTM order; 35..38 state inputs;
/// 39..47 auxiliary input and weights; 48..52 parameters; 53..60 layer-norm weights.
inline constexpr std::array<Slot, 61> kInputs{{
    {"input", Role::Data},
    {"fw_input_to_input_weights", Role::Weights, kSlotOmittable},
    {"fw_input_to_forget_weights", Role::Weights},
    {"fw_input_to_cell_weights", Role::Weights},
    {"fw_input_to_output_weights", Role::Weights},
    {"fw_recurrent_to_input_weights", Role::Weights, kSlotOmittable},
    {"fw_recurrent_to_forget_weights", Role::Weights},
    {"fw_recurrent_to_cell_weights", Role::Weights},
    {"fw_recurrent_to_output_weights", Role::Weights},
    {"fw_cell_to_input_weights", Role::Weights, kSlotOmittable},
    {"fw_cell_to_forget_weights", Role::Weights, kSlotOmittable},
    {"fw_cell_to_output_weights", Role::Weights, kSlotOmittable},
    {"fw_input_gate_bias", Role::Bias, kSlotOmittable},
    {"fw_forget_gate_bias", Role::Bias},
    {"fw_cell_bias", Role::Bias},
    {"fw_output_gate_bias", Role::Bias},
    {"fw_projection_weights", Role::Weights, kSlotOmittable},
    {"fw_projection_bias", Role::Bias, kSlotOmittable},
    {"bw_input_to_input_weights", Role::Weights, kSlotOmittable},
    {"bw_input_to_forget_weights", Role::Weights},
    {"bw_input_to_cell_weights", Role::Weights},
    {"bw_input_to_output_weights", Role::Weights},
    {"bw_recurrent_to_input_weights", Role::Weights, kSlotOmittable},
    {"bw_recurrent_to_forget_weights", Role::Weights},
    {"bw_recurrent_to_cell_weights", Role::Weights},
    {"bw_recurrent_to_output_weights", Role::Weights},
    {"bw_cell_to_input_weights", Role::Weights, kSlotOmittable},
    {"bw_cell_to_forget_weights", Role::Weights, kSlotOmittable},
    {"bw_cell_to_output_weights", Role::Weights, kSlotOmittable},
    {"bw_input_gate_bias", Role::Bias, kSlotOmittable},
    {"bw_forget_gate_bias", Role::Bias},
    {"bw_cell_bias", Role::Bias},
    {"bw_output_gate_bias", Role::Bias},
    {"bw_projection_weights", Role::Weights, kSlotOmittable},
    {"bw_projection_bias", Role::Bias, kSlotOmittable},
    {"fw_output_state_in", Role::State},
    {"fw_cell_state_in", Role::State},
    {"bw_output_state_in", Role::State},
    {"bw_cell_state_in", Role::State},
    {"aux_input", Role::Data, kSlotOmittable},
    {"fw_aux_input_to_input_weights", Role::Weights, kSlotOmittable},
    {"fw_aux_input_to_forget_weights", Role::Weights, kSlotOmittable},
    {"fw_aux_input_to_cell_weights", Role::Weights, kSlotOmittable},
    {"fw_aux_input_to_output_weights", Role::Weights, kSlotOmittable},
    {"bw_aux_input_to_input_weights", Role::Weights, kSlotOmittable},
    {"bw_aux_input_to_forget_weights", Role::Weights, kSlotOmittable},
    {"bw_aux_input_to_cell_weights", Role::Weights, kSlotOmittable},
    {"bw_aux_input_to_output_weights", Role::Weights, kSlotOmittable},
    {"activation", Role::Activation, kSlotRequired, kLstmActivations},
    {"cell_clip", Role::Parameter},
    {"projection_clip", Role::Parameter},
    {"merge_outputs", Role::Parameter},
    {"time_major", Role::Parameter},
    {"fw_input_layer_norm_weights", Role::Weights, kSlotOmittable},
    {"fw_forget_layer_norm_weights", Role::Weights, kSlotOmittable},
    {"fw_cell_layer_norm_weights", Role::Weights, kSlotOmittable},
    {"fw_output_layer_norm_weights", Role::Weights, kSlotOmittable},
    {"bw_input_layer_norm_weights", Role::Weights, kSlotOmittable},
    {"bw_forget_layer_norm_weights", Role::Weights, kSlotOmittable},
    {"bw_cell_layer_norm_weights", Role::Weights, kSlotOmittable},
    {"bw_output_layer_norm_weights", Role::Weights, kSlotOmittable},
}};
/// Names for 1, 2 or 6 outputs. With merge_outputs the backward output is absent and the state
/// outputs move down by one (5 outputs: fw output, fw state, fw cell, bw state, bw cell).
inline constexpr std::array<Slot, 6> kOutputs{{
    {"fw_output", Role::Data},
    {"bw_output", Role::Data, kSlotTrailing},
    {"fw_output_state_out", Role::State, kSlotTrailing},
    {"fw_cell_state_out", Role::State, kSlotTrailing},
    {"bw_output_state_out", Role::State, kSlotTrailing},
    {"bw_cell_state_out", Role::State, kSlotTrailing},
}};

/// {T x 48, INT32, fT, fT, BOOL, BOOL, T x 8} -> 1 or 2 x T (1.2), 5 or 6 x T (1.3): F16, F32.
/// Whether the count fits merge_outputs is an execution check.
inline constexpr auto kSignatures = [] {
  std::array<Signature, 8> out{};
  std::size_t k = 0;
  for (const TypeVersion& tv : lists::kFloat) {
    const OperandType t = tv.type, f = float_scalar_for(t);
    TypeSeq in = lists::append_n({}, t, 48);
    in = lists::append_n(in, OperandType::INT32, 1);
    in = lists::append_n(in, f, 2);
    in = lists::append_n(in, OperandType::BOOL, 2);
    in = lists::append_n(in, t, 8);
    out[k++] = sig(HalVersion::V1_2, in, {t});
    out[k++] = sig(HalVersion::V1_2, in, {t, t});
    out[k++] = sig(HalVersion::V1_3, in, lists::append_n({}, t, 5));
    out[k++] = sig(HalVersion::V1_3, in, lists::append_n({}, t, 6));
  }
  return out;
}();

/// A direction's auxiliary weights (at `aux`): forget/cell/output all given or all omitted; the
/// input-gate one with them unless the cell is CIFG (input `input_to_input` omitted), in which
/// case it must be omitted. The reference decides CIFG from the forward cell for both
/// directions; each direction's own cell is used here (they differ only when one direction is
/// CIFG and the other is not).
inline Status check_aux_weights(const OperationView& op, std::size_t aux,
                                std::size_t input_to_input) {
  using lstm_cell::Presence;
  const Presence cell_input = lstm_cell::presence(op, input_to_input);
  if (cell_input == Presence::Absent && lstm_cell::presence(op, aux) == Presence::Present)
    return NNHAL_INVALID(
        "input %zu (auxiliary input-gate weights) must be omitted under CIFG (input %zu omitted)",
        aux, input_to_input);
  NNHAL_TRY(lstm_cell::all_or_none(op, {aux + 1, aux + 2, aux + 3}, "auxiliary weights"));
  if (cell_input == Presence::Present || lstm_cell::presence(op, aux) == Presence::Present)
    NNHAL_TRY(lstm_cell::all_or_none(op, {aux, aux + 1, aux + 2, aux + 3}, "auxiliary weights"));
  return {};
}

/// Each cell's optional-group rules, the auxiliary weights' rules, forward and backward auxiliary
/// weights given together, and auxiliary weights only with the auxiliary input (an auxiliary
/// input without weights is "parallel linking"). Checked as far as lifetimes tell; the reference
/// checks the same when it prepares the operation.
inline Status validate(const OperationView& op, HalVersion&) {
  NNHAL_TRY(lstm_cell::check_optional_groups(op, kFw, true));
  NNHAL_TRY(lstm_cell::check_optional_groups(op, kBw, true));
  NNHAL_TRY(check_aux_weights(op, kFwAux, kFw.input_to_input));
  NNHAL_TRY(check_aux_weights(op, kBwAux, kBw.input_to_input));
  NNHAL_TRY(lstm_cell::all_or_none(op, {kFwAux + 1, kBwAux + 1},
                                   "forward and backward auxiliary weights"));
  using lstm_cell::Presence;
  if (lstm_cell::presence(op, kAuxInput) == Presence::Absent &&
      lstm_cell::presence(op, kFwAux + 1) == Presence::Present)
    return NNHAL_INVALID(
        "auxiliary weights (inputs %zu..%zu) are given without the auxiliary input %zu", kFwAux,
        kBwAux + 3, kAuxInput);
  return {};
}
}  // namespace bidirectional_sequence_lstm

}  // namespace nnhal::ops

namespace nnhal {

/// BIDIRECTIONAL_SEQUENCE_LSTM in the operation table.
template <>
struct Row<OperationType::BIDIRECTIONAL_SEQUENCE_LSTM> {
  static constexpr OperationInfo info = make_row(OperationType::BIDIRECTIONAL_SEQUENCE_LSTM, {
      .inputs = ops::bidirectional_sequence_lstm::kInputs,
      .outputs = ops::bidirectional_sequence_lstm::kOutputs,
      .signatures = ops::bidirectional_sequence_lstm::kSignatures,
      .validate = &ops::bidirectional_sequence_lstm::validate,
      .flags = kOpAllowsOmitted,
  });
};

}  // namespace nnhal
