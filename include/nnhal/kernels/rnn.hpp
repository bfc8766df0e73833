#pragma once
/// \file
/// RNN kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// RNN is validated (nnhal/ops/rnn.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::RNN> : NoKernelsYet {};

}  // namespace nnhal
