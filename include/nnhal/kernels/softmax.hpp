#pragma once
/// \file
/// SOFTMAX kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// SOFTMAX is validated (nnhal/ops/softmax.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::SOFTMAX> : NoKernelsYet {};

}  // namespace nnhal
