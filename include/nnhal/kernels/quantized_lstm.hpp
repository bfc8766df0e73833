#pragma once
/// \file
/// QUANTIZED_LSTM kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// QUANTIZED_LSTM is validated (nnhal/ops/quantized_lstm.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::QUANTIZED_LSTM> : NoKernelsYet {};

}  // namespace nnhal
