#pragma once
/// \file
/// DEPTH_TO_SPACE kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// DEPTH_TO_SPACE is validated (nnhal/ops/depth_to_space.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::DEPTH_TO_SPACE> : NoKernelsYet {};

}  // namespace nnhal
