#pragma once
/// \file
/// REDUCE_ALL kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// REDUCE_ALL is validated (nnhal/ops/reduce_all.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::REDUCE_ALL> : NoKernelsYet {};

}  // namespace nnhal
