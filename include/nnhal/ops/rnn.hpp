#pragma once
/// \file
/// RNN (24): one step of a basic recurrent layer, `h = act(W x + R h_prev + b)`; outputs the new
/// hidden state and the output (both the same values).

#include <array>

#include "nnhal/ops/common/v1_0_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace rnn {
inline constexpr std::array<Slot, 6> kInputs{{
    {"input", Role::Data},
    {"weights", Role::Weights},
    {"recurrent_weights", Role::Weights},
    {"bias", Role::Bias},
    {"hidden_state_in", Role::State},
    {"activation", Role::Activation},
}};
inline constexpr std::array<Slot, 2> kOutputs{{
    {"hidden_state_out", Role::State},
    {"output", Role::Data},
}};
/// {T x 5, INT32} -> {T, T}: F32 1.0; F16 1.2.
inline constexpr auto kSignatures = for_each_type(v1_0::kFloatTypes, [](OperandType t, HalVersion v) {
  return sig(v, {t, t, t, t, t, OperandType::INT32}, {t, t});
});
}  // namespace rnn

}  // namespace nnhal::ops

namespace nnhal {

/// RNN in the operation table.
template <>
struct Row<OperationType::RNN> {
  static constexpr OperationInfo info = make_row(OperationType::RNN, {
      .inputs = ops::rnn::kInputs,
      .outputs = ops::rnn::kOutputs,
      .signatures = ops::rnn::kSignatures,
  });
};

}  // namespace nnhal
