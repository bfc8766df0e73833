#pragma once
/// \file
/// ELU kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// ELU is validated (nnhal/ops/elu.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::ELU> : NoKernelsYet {};

}  // namespace nnhal
