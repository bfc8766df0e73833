#pragma once
/// \file
/// LSTM kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// LSTM is validated (nnhal/ops/lstm.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::LSTM> : NoKernelsYet {};

}  // namespace nnhal
