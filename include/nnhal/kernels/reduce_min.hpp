#pragma once
/// \file
/// REDUCE_MIN kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// REDUCE_MIN is validated (nnhal/ops/reduce_min.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::REDUCE_MIN> : NoKernelsYet {};

}  // namespace nnhal
