#pragma once
/// \file
/// LSTM (16): one step of a long short-term memory cell with optional CIFG, peephole,
/// projection and (27-input form, 1.2) layer normalization; outputs the scratch buffer, the new
/// output state, the new cell state and the output.

#include <array>
#include <cstddef>

#include "nnhal/ops/common/lstm_slots.hpp"
#include "nnhal/ops/common/v1_0_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace lstm {
/// 23 inputs, or 27 with the four layer-norm weights.
inline constexpr auto kInputs = lstm_cell::join_slots(
    std::array<Slot, 1>{{{"input", Role::Data}}}, lstm_cell::kWeightSlots,
    std::array<Slot, 5>{{
        {"output_state_in", Role::State},
        {"cell_state_in", Role::State},
        {"activation", Role::Activation, kSlotRequired, kLstmActivations},
        {"cell_clip", Role::Parameter},
        {"projection_clip", Role::Parameter},
    }},
    lstm_cell::layer_norm_slots(kSlotTrailing));
inline constexpr std::array<Slot, 4> kOutputs{{
    {"scratch_buffer", Role::Data},
    {"output_state_out", Role::State},
    {"cell_state_out", Role::State},
    {"output", Role::Data},
}};

/// {T x 20, INT32, fT, fT} -> {T x 4} (every tensor T): F32 1.0, F16 1.2; the 27-input form
/// (+ T x 4 layer-norm weights) 1.2.
inline constexpr auto kSignatures = [] {
  std::array<Signature, 2 * v1_0::kFloatTypes.size()> out{};
  std::size_t k = 0;
  for (const TypeVersion& tv : v1_0::kFloatTypes) {
    const OperandType t = tv.type;
    const OperandType f = float_scalar_for(t);
    TypeSeq in{t};
    for (int i = 0; i < 19; ++i) in = v1_0::append(in, {t});
    in = v1_0::append(in, {OperandType::INT32, f, f});
    out[k++] = sig(tv.version, in, {t, t, t, t});
    out[k++] = sig(HalVersion::V1_2, v1_0::append(in, {t, t, t, t}), {t, t, t, t});
  }
  return out;
}();

/// Optional-group rules (CIFG, peephole, projection, layer norm).
inline Status validate(const OperationView& op, HalVersion&) {
  return lstm_cell::check_optional_groups(op, lstm_cell::kLstmPositions, op.input_count() == 27);
}
}  // namespace lstm

}  // namespace nnhal::ops

namespace nnhal {

/// LSTM in the operation table.
template <>
struct Row<OperationType::LSTM> {
  static constexpr OperationInfo info = make_row(OperationType::LSTM, {
      .inputs = ops::lstm::kInputs,
      .outputs = ops::lstm::kOutputs,
      .signatures = ops::lstm::kSignatures,
      .validate = &ops::lstm::validate,
      .flags = kOpAllowsOmitted,
  });
};

}  // namespace nnhal
