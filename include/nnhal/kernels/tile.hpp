#pragma once
/// \file
/// TILE kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// TILE is validated (nnhal/ops/tile.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::TILE> : NoKernelsYet {};

}  // namespace nnhal
