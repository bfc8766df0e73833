#pragma once
/// \file
/// ARGMIN kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// ARGMIN is validated (nnhal/ops/argmin.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::ARGMIN> : NoKernelsYet {};

}  // namespace nnhal
