#pragma once
/// \file
/// QUANTIZED_16BIT_LSTM kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// QUANTIZED_16BIT_LSTM is validated (nnhal/ops/quantized_16bit_lstm.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::QUANTIZED_16BIT_LSTM> : NoKernelsYet {};

}  // namespace nnhal
