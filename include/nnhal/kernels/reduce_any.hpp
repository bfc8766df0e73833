#pragma once
/// \file
/// REDUCE_ANY kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// REDUCE_ANY is validated (nnhal/ops/reduce_any.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::REDUCE_ANY> : NoKernelsYet {};

}  // namespace nnhal
