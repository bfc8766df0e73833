#pragma once
/// \file
/// BIDIRECTIONAL_SEQUENCE_RNN kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// BIDIRECTIONAL_SEQUENCE_RNN is validated (nnhal/ops/bidirectional_sequence_rnn.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::BIDIRECTIONAL_SEQUENCE_RNN> : NoKernelsYet {};

}  // namespace nnhal
