#pragma once
/// \file
/// FILL kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// FILL is validated (nnhal/ops/fill.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::FILL> : NoKernelsYet {};

}  // namespace nnhal
