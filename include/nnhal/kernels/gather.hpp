#pragma once
/// \file
/// GATHER kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// GATHER is validated (nnhal/ops/gather.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::GATHER> : NoKernelsYet {};

}  // namespace nnhal
