#pragma once
/// \file
/// PRELU kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// PRELU is validated (nnhal/ops/prelu.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::PRELU> : NoKernelsYet {};

}  // namespace nnhal
