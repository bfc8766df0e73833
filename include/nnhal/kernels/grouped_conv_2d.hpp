#pragma once
/// \file
/// GROUPED_CONV_2D kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// GROUPED_CONV_2D is validated (nnhal/ops/grouped_conv_2d.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::GROUPED_CONV_2D> : NoKernelsYet {};

}  // namespace nnhal
