#pragma once
/// \file
/// QUANTIZED_LSTM (95): one step of a fully quantized LSTM cell (QAS8 activations, QS8 weights,
/// QS16 cell state) with optional CIFG, peephole, projection and layer normalization.

#include "nnhal/ops/common/lstm_slots.hpp"
#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace quantized_lstm {
/// Inputs 1..17 in LSTM order; 18/19 previous output and cell state; 20..23 layer-norm weights
/// (optional by value); 24..31 clips, intermediate scales and the hidden state's quantization.
inline constexpr auto kInputs =
    lstm_cell::join_slots(std::array<Slot, 1>{{{"input", Role::Data}}}, lstm_cell::kWeightSlots,
                          std::array<Slot, 2>{{
                              {"output_state_in", Role::State},
                              {"cell_state_in", Role::State},
                          }},
                          lstm_cell::layer_norm_slots(),
                          std::array<Slot, 8>{{
                              {"cell_clip", Role::Parameter},
                              {"projection_clip", Role::Parameter},
                              {"input_intermediate_scale", Role::Parameter},
                              {"forget_intermediate_scale", Role::Parameter},
                              {"cell_intermediate_scale", Role::Parameter},
                              {"output_intermediate_scale", Role::Parameter},
                              {"hidden_state_zero_point", Role::Parameter},
                              {"hidden_state_scale", Role::Parameter},
                          }});
inline constexpr std::array<Slot, 3> kOutputs{{
    {"output_state_out", Role::State},
    {"cell_state_out", Role::State},
    {"output", Role::Data},
}};

/// The one type combination of QLSTM.cpp (1.3).
inline constexpr auto kSignatures = [] {
  using enum OperandType;
  TypeSeq in{TENSOR_QUANT8_ASYMM_SIGNED};
  in = lists::append_n(in, TENSOR_QUANT8_SYMM, 8);   // 1..8 gate weights
  in = lists::append_n(in, TENSOR_QUANT16_SYMM, 3);  // 9..11 peepholes
  in = lists::append_n(in, TENSOR_INT32, 4);         // 12..15 gate biases
  in = lists::append_n(in, TENSOR_QUANT8_SYMM, 1);   // 16 projection weights
  in = lists::append_n(in, TENSOR_INT32, 1);         // 17 projection bias
  in = lists::append_n(in, TENSOR_QUANT8_ASYMM_SIGNED, 1);
  in = lists::append_n(in, TENSOR_QUANT16_SYMM, 5);  // 19 cell state, 20..23 layer norm
  in = lists::append_n(in, FLOAT32, 6);              // 24..29 clips, intermediate scales
  in = lists::append_n(in, INT32, 1);                // 30 hidden-state zeroPoint
  in = lists::append_n(in, FLOAT32, 1);              // 31 hidden-state scale
  return std::array<Signature, 1>{
      {sig(HalVersion::V1_3, in,
           {TENSOR_QUANT8_ASYMM_SIGNED, TENSOR_QUANT16_SYMM, TENSOR_QUANT8_ASYMM_SIGNED})}};
}();

/// LSTM's optional-group rules (QLSTM.cpp prepare), as far as lifetimes tell; layer-norm weights
/// start at input 20.
inline Status validate(const OperationView& op, HalVersion&) {
  return lstm_cell::check_optional_groups(op, {1, 5, 9, 10, 11, 12, 16, 17, 20}, true);
}
}  // namespace quantized_lstm

}  // namespace nnhal::ops

namespace nnhal {

/// QUANTIZED_LSTM in the operation table.
template <>
struct Row<OperationType::QUANTIZED_LSTM> {
  static constexpr OperationInfo info = make_row(OperationType::QUANTIZED_LSTM, {
      .inputs = ops::quantized_lstm::kInputs,
      .outputs = ops::quantized_lstm::kOutputs,
      .signatures = ops::quantized_lstm::kSignatures,
      .validate = &ops::quantized_lstm::validate,
      .flags = kOpAllowsOmitted,
  });
};

}  // namespace nnhal
