#pragma once
/// \file
/// POW kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// POW is validated (nnhal/ops/pow.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::POW> : NoKernelsYet {};

}  // namespace nnhal
