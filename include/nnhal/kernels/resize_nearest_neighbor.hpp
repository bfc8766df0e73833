#pragma once
/// \file
/// RESIZE_NEAREST_NEIGHBOR kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// RESIZE_NEAREST_NEIGHBOR is validated (nnhal/ops/resize_nearest_neighbor.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::RESIZE_NEAREST_NEIGHBOR> : NoKernelsYet {};

}  // namespace nnhal
