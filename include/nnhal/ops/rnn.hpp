#pragma once
/// \file
/// RNN (24): one step of a basic recurrent layer, `h = act(W x + R h_prev + b)`; outputs the new
/// hidden state and the output (both the same values).

#include <array>

#include "nnhal/ops/common/v1_0_signatures.hpp"
#include "nnhal/ops/operation_info.hpp"

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

/// RNN in the operation table.
struct Rnn : OperationDescriptor<OperationType::RNN> {
  static constexpr OperationInfo info{OperationType::RNN, "RNN",         HalVersion::V1_0,
                                      rnn::kInputs,       rnn::kOutputs, rnn::kSignatures};
};

}  // namespace nnhal::ops
