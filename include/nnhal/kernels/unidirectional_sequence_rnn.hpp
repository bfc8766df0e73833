#pragma once
/// \file
/// UNIDIRECTIONAL_SEQUENCE_RNN kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// UNIDIRECTIONAL_SEQUENCE_RNN is validated (nnhal/ops/unidirectional_sequence_rnn.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::UNIDIRECTIONAL_SEQUENCE_RNN> : NoKernelsYet {};

}  // namespace nnhal
