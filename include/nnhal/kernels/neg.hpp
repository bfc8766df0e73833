#pragma once
/// \file
/// NEG kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// NEG is validated (nnhal/ops/neg.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::NEG> : NoKernelsYet {};

}  // namespace nnhal
