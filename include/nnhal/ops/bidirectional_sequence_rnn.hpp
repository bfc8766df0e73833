#pragma once
/// \file
/// BIDIRECTIONAL_SEQUENCE_RNN (43): forward and backward basic RNN cells over a 3-D input
/// sequence, with optional auxiliary input and (1.3) final hidden-state outputs.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace bidirectional_sequence_rnn {
inline constexpr std::size_t kAuxInput = 9, kFwAuxWeights = 10, kBwAuxWeights = 11;

inline constexpr std::array<Slot, 15> kInputs{{
    {"input", Role::Data},
    {"fw_weights", Role::Weights},
    {"fw_recurrent_weights", Role::Weights},
    {"fw_bias", Role::Bias},
    {"fw_hidden_state", Role::State},
    {"bw_weights", Role::Weights},
    {"bw_recurrent_weights", Role::Weights},
    {"bw_bias", Role::Bias},
    {"bw_hidden_state", Role::State},
    {"aux_input", Role::Data, kSlotOmittable},
    {"fw_aux_weights", Role::Weights, kSlotOmittable},
    {"bw_aux_weights", Role::Weights, kSlotOmittable},
    {"activation", Role::Activation},
    {"time_major", Role::Parameter},     // BOOL
    {"merge_outputs", Role::Parameter},  // BOOL
}};
/// Unmerged with states: fw output, bw output, fw hidden state, bw hidden state. Merged outputs
/// drop the bw output (1 or 3 outputs); the state outputs need 1.3. Whether the count fits
/// merge_outputs is an execution check.
inline constexpr std::array<Slot, 4> kOutputs{{
    {"fw_output", Role::Data},
    {"bw_output", Role::Data, kSlotTrailing},
    {"fw_hidden_state_out", Role::State, kSlotTrailing},
    {"bw_hidden_state_out", Role::State, kSlotTrailing},
}};

/// {T x 12, INT32, BOOL, BOOL} -> 1 or 2 x T (1.2), 3 or 4 x T (1.3): F16, F32.
inline constexpr auto kSignatures = [] {
  using enum OperandType;
  std::array<Signature, 8> out{};
  std::size_t k = 0;
  for (const TypeVersion& tv : lists::kFloat) {
    const OperandType t = tv.type;
    const TypeSeq in{t, t, t, t, t, t, t, t, t, t, t, t, INT32, BOOL, BOOL};
    out[k++] = sig(HalVersion::V1_2, in, {t});
    out[k++] = sig(HalVersion::V1_2, in, {t, t});
    out[k++] = sig(HalVersion::V1_3, in, {t, t, t});
    out[k++] = sig(HalVersion::V1_3, in, {t, t, t, t});
  }
  return out;
}();

/// Auxiliary weights need an auxiliary input, and the forward and backward auxiliary weights are
/// both given or both omitted (the reference's linking modes). An auxiliary input without
/// weights ("parallel linking") is accepted. Only operands whose presence is static are
/// checked: a model input may still be omitted by the request, which execution checks.
inline Status validate(const OperationView& op, HalVersion&) {
  const auto omitted = [&](std::size_t i) {
    return op.input(i).lifetime == OperandLifeTime::NO_VALUE;
  };
  const auto given = [&](std::size_t i) {
    const OperandLifeTime l = op.input(i).lifetime;
    return l != OperandLifeTime::NO_VALUE && l != OperandLifeTime::SUBGRAPH_INPUT;
  };
  if ((given(kFwAuxWeights) && omitted(kBwAuxWeights)) ||
      (omitted(kFwAuxWeights) && given(kBwAuxWeights)))
    return NNHAL_INVALID(
        "inputs %zu and %zu (fw/bw auxiliary weights) must both be given or both omitted",
        kFwAuxWeights, kBwAuxWeights);
  if (omitted(kAuxInput) && (given(kFwAuxWeights) || given(kBwAuxWeights)))
    return NNHAL_INVALID(
        "auxiliary weights (inputs %zu, %zu) are given without the auxiliary input %zu",
        kFwAuxWeights, kBwAuxWeights, kAuxInput);
  return {};
}
}  // namespace bidirectional_sequence_rnn

}  // namespace nnhal::ops

namespace nnhal {

/// BIDIRECTIONAL_SEQUENCE_RNN in the operation table.
template <>
struct Row<OperationType::BIDIRECTIONAL_SEQUENCE_RNN> {
  static constexpr OperationInfo info = make_row(OperationType::BIDIRECTIONAL_SEQUENCE_RNN, {
      .inputs = ops::bidirectional_sequence_rnn::kInputs,
      .outputs = ops::bidirectional_sequence_rnn::kOutputs,
      .signatures = ops::bidirectional_sequence_rnn::kSignatures,
      .validate = &ops::bidirectional_sequence_rnn::validate,
      .flags = kOpAllowsOmitted,
  });
};

}  // namespace nnhal
