#pragma once
/// \file
/// SELECT kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// SELECT is validated (nnhal/ops/select.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::SELECT> : NoKernelsYet {};

}  // namespace nnhal
