#pragma once
/// \file
/// MINIMUM kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// MINIMUM is validated (nnhal/ops/minimum.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::MINIMUM> : NoKernelsYet {};

}  // namespace nnhal
