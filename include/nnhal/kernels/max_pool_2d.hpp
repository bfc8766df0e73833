#pragma once
/// \file
/// MAX_POOL_2D kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// MAX_POOL_2D is validated (nnhal/ops/max_pool_2d.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::MAX_POOL_2D> : NoKernelsYet {};

}  // namespace nnhal
