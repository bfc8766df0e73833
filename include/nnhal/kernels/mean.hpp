#pragma once
/// \file
/// MEAN kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// MEAN is validated (nnhal/ops/mean.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::MEAN> : NoKernelsYet {};

}  // namespace nnhal
