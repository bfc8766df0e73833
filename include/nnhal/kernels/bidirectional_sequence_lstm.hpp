#pragma once
/// \file
/// BIDIRECTIONAL_SEQUENCE_LSTM kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// BIDIRECTIONAL_SEQUENCE_LSTM is validated (nnhal/ops/bidirectional_sequence_lstm.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::BIDIRECTIONAL_SEQUENCE_LSTM> : NoKernelsYet {};

}  // namespace nnhal
