#pragma once
/// \file
/// CONV_2D kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// CONV_2D is validated (nnhal/ops/conv_2d.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::CONV_2D> : NoKernelsYet {};

}  // namespace nnhal
