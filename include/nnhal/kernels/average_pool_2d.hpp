#pragma once
/// \file
/// AVERAGE_POOL_2D kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// AVERAGE_POOL_2D is validated (nnhal/ops/average_pool_2d.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::AVERAGE_POOL_2D> : NoKernelsYet {};

}  // namespace nnhal
