#pragma once
/// \file
/// RANDOM_MULTINOMIAL kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// RANDOM_MULTINOMIAL is validated (nnhal/ops/random_multinomial.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::RANDOM_MULTINOMIAL> : NoKernelsYet {};

}  // namespace nnhal
