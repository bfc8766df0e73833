#pragma once
/// \file
/// RELU6 kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// RELU6 is validated (nnhal/ops/relu6.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::RELU6> : NoKernelsYet {};

}  // namespace nnhal
