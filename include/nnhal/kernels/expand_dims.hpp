#pragma once
/// \file
/// EXPAND_DIMS kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// EXPAND_DIMS is validated (nnhal/ops/expand_dims.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::EXPAND_DIMS> : NoKernelsYet {};

}  // namespace nnhal
