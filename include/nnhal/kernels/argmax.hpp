#pragma once
/// \file
/// ARGMAX kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// ARGMAX is validated (nnhal/ops/argmax.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::ARGMAX> : NoKernelsYet {};

}  // namespace nnhal
