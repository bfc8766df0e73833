#pragma once
/// \file
/// FLOOR kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// FLOOR is validated (nnhal/ops/floor.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::FLOOR> : NoKernelsYet {};

}  // namespace nnhal
