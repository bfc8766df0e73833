#pragma once
/// \file
/// SQRT kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// SQRT is validated (nnhal/ops/sqrt.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::SQRT> : NoKernelsYet {};

}  // namespace nnhal
