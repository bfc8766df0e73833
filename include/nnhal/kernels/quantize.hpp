#pragma once
/// \file
/// QUANTIZE kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// QUANTIZE is validated (nnhal/ops/quantize.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::QUANTIZE> : NoKernelsYet {};

}  // namespace nnhal
