#pragma once
/// \file
/// DEQUANTIZE kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// DEQUANTIZE is validated (nnhal/ops/dequantize.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::DEQUANTIZE> : NoKernelsYet {};

}  // namespace nnhal
