#pragma once
/// \file
/// SPACE_TO_DEPTH kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// SPACE_TO_DEPTH is validated (nnhal/ops/space_to_depth.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::SPACE_TO_DEPTH> : NoKernelsYet {};

}  // namespace nnhal
