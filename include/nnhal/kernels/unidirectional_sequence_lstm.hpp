#pragma once
/// \file
/// UNIDIRECTIONAL_SEQUENCE_LSTM kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// UNIDIRECTIONAL_SEQUENCE_LSTM is validated (nnhal/ops/unidirectional_sequence_lstm.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::UNIDIRECTIONAL_SEQUENCE_LSTM> : NoKernelsYet {};

}  // namespace nnhal
