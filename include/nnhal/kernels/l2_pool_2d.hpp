#pragma once
/// \file
/// L2_POOL_2D kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// L2_POOL_2D is validated (nnhal/ops/l2_pool_2d.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::L2_POOL_2D> : NoKernelsYet {};

}  // namespace nnhal
