#pragma once
/// \file
/// SQUEEZE kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// SQUEEZE is validated (nnhal/ops/squeeze.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::SQUEEZE> : NoKernelsYet {};

}  // namespace nnhal
