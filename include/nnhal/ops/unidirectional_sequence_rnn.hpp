#pragma once
/// \file
/// UNIDIRECTIONAL_SEQUENCE_RNN (93): a basic RNN cell unrolled over the time dimension of a
/// 3-D input.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace unidirectional_sequence_rnn {
inline constexpr std::array<Slot, 7> kInputs{{
    {"input", Role::Data},                 // [max_time, batch, input_size] or batch-major
    {"weights", Role::Weights},            // [num_units, input_size]
    {"recurrent_weights", Role::Weights},  // [num_units, num_units]
    {"bias", Role::Bias},                  // [num_units]
    {"hidden_state", Role::State},         // [batch, num_units]
    {"activation", Role::Activation},
    {"time_major", Role::Parameter, kSlotRequired, kFlagValues},  // INT32 0 or 1
}};
/// The output sequence; with 2 outputs (1.3) also the final hidden state.
inline constexpr std::array<Slot, 2> kOutputs{{
    {"output", Role::Data},
    {"hidden_state_out", Role::State, kSlotTrailing},
}};

/// {T x 5, INT32, INT32} -> {T} (1.2) or {T, T} (1.3): F16, F32.
inline constexpr auto kSignatures = [] {
  using enum OperandType;
  std::array<Signature, 4> out{};
  std::size_t k = 0;
  for (const TypeVersion& tv : lists::kFloat) {
    const OperandType t = tv.type;
    const TypeSeq in{t, t, t, t, t, INT32, INT32};
    out[k++] = sig(HalVersion::V1_2, in, {t});
    out[k++] = sig(HalVersion::V1_3, in, {t, t});
  }
  return out;
}();
}  // namespace unidirectional_sequence_rnn

}  // namespace nnhal::ops

namespace nnhal {

/// UNIDIRECTIONAL_SEQUENCE_RNN in the operation table.
template <>
struct Row<OperationType::UNIDIRECTIONAL_SEQUENCE_RNN> {
  static constexpr OperationInfo info = make_row(OperationType::UNIDIRECTIONAL_SEQUENCE_RNN, {
      .inputs = ops::unidirectional_sequence_rnn::kInputs,
      .outputs = ops::unidirectional_sequence_rnn::kOutputs,
      .signatures = ops::unidirectional_sequence_rnn::kSignatures,
  });
};

}  // namespace nnhal
