#pragma once
/// \file
/// EXP kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// EXP is validated (nnhal/ops/exp.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::EXP> : NoKernelsYet {};

}  // namespace nnhal
