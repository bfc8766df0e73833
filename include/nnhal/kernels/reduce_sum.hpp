#pragma once
/// \file
/// REDUCE_SUM kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// REDUCE_SUM is validated (nnhal/ops/reduce_sum.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::REDUCE_SUM> : NoKernelsYet {};

}  // namespace nnhal
