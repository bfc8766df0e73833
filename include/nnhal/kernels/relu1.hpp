#pragma once
/// \file
/// RELU1 kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// RELU1 is validated (nnhal/ops/relu1.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::RELU1> : NoKernelsYet {};

}  // namespace nnhal
