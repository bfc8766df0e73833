#pragma once
/// \file
/// ABS kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// ABS is validated (nnhal/ops/abs.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::ABS> : NoKernelsYet {};

}  // namespace nnhal
