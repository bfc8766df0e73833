#pragma once
/// \file
/// RELU kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// RELU is validated (nnhal/ops/relu.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::RELU> : NoKernelsYet {};

}  // namespace nnhal
