#pragma once
/// \file
/// RESIZE_BILINEAR kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// RESIZE_BILINEAR is validated (nnhal/ops/resize_bilinear.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::RESIZE_BILINEAR> : NoKernelsYet {};

}  // namespace nnhal
