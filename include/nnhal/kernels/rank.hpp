#pragma once
/// \file
/// RANK kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// RANK is validated (nnhal/ops/rank.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::RANK> : NoKernelsYet {};

}  // namespace nnhal
