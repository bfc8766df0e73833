#pragma once
/// \file
/// TANH kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// TANH is validated (nnhal/ops/tanh.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::TANH> : NoKernelsYet {};

}  // namespace nnhal
