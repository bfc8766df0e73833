#pragma once
/// \file
/// LOG kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// LOG is validated (nnhal/ops/log.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::LOG> : NoKernelsYet {};

}  // namespace nnhal
