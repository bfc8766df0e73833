#pragma once
/// \file
/// REDUCE_MAX kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// REDUCE_MAX is validated (nnhal/ops/reduce_max.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::REDUCE_MAX> : NoKernelsYet {};

}  // namespace nnhal
