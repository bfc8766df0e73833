#pragma once
/// \file
/// QUANTIZED_16BIT_LSTM (73): one step of a quantized LSTM cell (QA8 activations and weights,
/// INT32 biases, QS16 cell state). The fixed quantization parameters (input/output scale 1/128
/// zeroPoint 128, cell state scale 2^-11, bias scale = input scale * weight scale) are checked at
/// execution, as in the reference.

#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace quantized_16bit_lstm {
inline constexpr std::array<Slot, 15> kInputs{{
    {"input", Role::Data},  // [batches, input_size]
    {"input_to_input_weights", Role::Weights},
    {"input_to_forget_weights", Role::Weights},
    {"input_to_cell_weights", Role::Weights},
    {"input_to_output_weights", Role::Weights},
    {"recurrent_to_input_weights", Role::Weights},
    {"recurrent_to_forget_weights", Role::Weights},
    {"recurrent_to_cell_weights", Role::Weights},
    {"recurrent_to_output_weights", Role::Weights},
    {"input_gate_bias", Role::Bias},
    {"forget_gate_bias", Role::Bias},
    {"cell_bias", Role::Bias},
    {"output_gate_bias", Role::Bias},
    {"prev_cell_state", Role::State},  // QS16 [batches, output_size]
    {"prev_output", Role::State},      // QA8 [batches, output_size]
}};
inline constexpr std::array<Slot, 2> kOutputs{{
    {"cell_state_out", Role::State},
    {"output", Role::Data},
}};

/// {QA8 x 9, TENSOR_INT32 x 4, QS16, QA8} -> {QS16, QA8} (1.2).
inline constexpr auto kSignatures = [] {
  using enum OperandType;
  TypeSeq in = lists::append_n({}, TENSOR_QUANT8_ASYMM, 9);
  in = lists::append_n(in, TENSOR_INT32, 4);
  in = lists::append_n(in, TENSOR_QUANT16_SYMM, 1);
  in = lists::append_n(in, TENSOR_QUANT8_ASYMM, 1);
  return std::array<Signature, 1>{
      {sig(HalVersion::V1_2, in, {TENSOR_QUANT16_SYMM, TENSOR_QUANT8_ASYMM})}};
}();
}  // namespace quantized_16bit_lstm

}  // namespace nnhal::ops

namespace nnhal {

/// QUANTIZED_16BIT_LSTM in the operation table.
template <>
struct Row<OperationType::QUANTIZED_16BIT_LSTM> {
  static constexpr OperationInfo info = make_row(OperationType::QUANTIZED_16BIT_LSTM, {
      .inputs = ops::quantized_16bit_lstm::kInputs,
      .outputs = ops::quantized_16bit_lstm::kOutputs,
      .signatures = ops::quantized_16bit_lstm::kSignatures,
  });
};

}  // namespace nnhal
