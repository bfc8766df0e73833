#pragma once
/// \file
/// HARD_SWISH kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// HARD_SWISH is validated (nnhal/ops/hard_swish.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::HARD_SWISH> : NoKernelsYet {};

}  // namespace nnhal
