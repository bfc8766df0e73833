#pragma once
/// \file
/// DEPTHWISE_CONV_2D kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// DEPTHWISE_CONV_2D is validated (nnhal/ops/depthwise_conv_2d.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::DEPTHWISE_CONV_2D> : NoKernelsYet {};

}  // namespace nnhal
