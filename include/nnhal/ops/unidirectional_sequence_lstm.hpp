#pragma once
/// \file
/// UNIDIRECTIONAL_SEQUENCE_LSTM (92): an LSTM cell (optional CIFG, peephole, projection and
/// layer normalization) unrolled over the time dimension of a 3-D input.

#include "nnhal/ops/common/lstm_slots.hpp"
#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace unidirectional_sequence_lstm {
/// Inputs 1..19 are LSTM's (same optionality); 20 activation, 21/22 clips, 23 time_major,
/// 24..27 layer-norm weights (optional by value, always in the list).
inline constexpr auto kInputs =
    lstm_cell::join_slots(std::array<Slot, 1>{{{"input", Role::Data}}}, lstm_cell::kWeightSlots,
                          std::array<Slot, 6>{{
                              {"output_state_in", Role::State},
                              {"cell_state_in", Role::State},
                              {"activation", Role::Activation, kSlotRequired, kLstmActivations},
                              {"cell_clip", Role::Parameter},
                              {"projection_clip", Role::Parameter},
                              {"time_major", Role::Parameter},
                          }},
                          lstm_cell::layer_norm_slots());
/// The output sequence; with 3 outputs (1.3) also the final output and cell states.
inline constexpr std::array<Slot, 3> kOutputs{{
    {"output", Role::Data},
    {"output_state_out", Role::State, kSlotTrailing},
    {"cell_state_out", Role::State, kSlotTrailing},
}};

/// {T x 20, INT32, fT, fT, BOOL, T x 4} -> {T} (1.2) or {T, T, T} (1.3): F16, F32.
inline constexpr auto kSignatures = [] {
  std::array<Signature, 4> out{};
  std::size_t k = 0;
  for (const TypeVersion& tv : lists::kFloat) {
    const OperandType t = tv.type, f = float_scalar_for(t);
    TypeSeq in = lists::append_n({}, t, 20);
    in = lists::append_n(in, OperandType::INT32, 1);
    in = lists::append_n(in, f, 2);
    in = lists::append_n(in, OperandType::BOOL, 1);
    in = lists::append_n(in, t, 4);
    out[k++] = sig(HalVersion::V1_2, in, {t});
    out[k++] = sig(HalVersion::V1_3, in, {t, t, t});
  }
  return out;
}();

/// LSTM's optional-group rules (UnidirectionalSequenceLSTM.cpp prepare), as far as lifetimes
/// tell; layer-norm weights start at input 24.
inline Status validate(const OperationView& op, HalVersion&) {
  return lstm_cell::check_optional_groups(op, {1, 5, 9, 10, 11, 12, 16, 17, 24}, true);
}
}  // namespace unidirectional_sequence_lstm

}  // namespace nnhal::ops

namespace nnhal {

/// UNIDIRECTIONAL_SEQUENCE_LSTM in the operation table.
template <>
struct Row<OperationType::UNIDIRECTIONAL_SEQUENCE_LSTM> {
  static constexpr OperationInfo info = make_row(OperationType::UNIDIRECTIONAL_SEQUENCE_LSTM, {
      .inputs = ops::unidirectional_sequence_lstm::kInputs,
      .outputs = ops::unidirectional_sequence_lstm::kOutputs,
      .signatures = ops::unidirectional_sequence_lstm::kSignatures,
      .validate = &ops::unidirectional_sequence_lstm::validate,
      .flags = kOpAllowsOmitted,
  });
};

}  // namespace nnhal
