#pragma once
/// \file
/// TRANSPOSE_CONV_2D kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// TRANSPOSE_CONV_2D is validated (nnhal/ops/transpose_conv_2d.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::TRANSPOSE_CONV_2D> : NoKernelsYet {};

}  // namespace nnhal
