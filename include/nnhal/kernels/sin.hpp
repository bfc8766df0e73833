#pragma once
/// \file
/// SIN kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// SIN is validated (nnhal/ops/sin.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::SIN> : NoKernelsYet {};

}  // namespace nnhal
