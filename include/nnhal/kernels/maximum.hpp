#pragma once
/// \file
/// MAXIMUM kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// MAXIMUM is validated (nnhal/ops/maximum.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::MAXIMUM> : NoKernelsYet {};

}  // namespace nnhal
