#pragma once
/// \file
/// TRANSPOSE kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// TRANSPOSE is validated (nnhal/ops/transpose.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::TRANSPOSE> : NoKernelsYet {};

}  // namespace nnhal
