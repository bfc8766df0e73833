#pragma once
/// \file
/// ROI_POOLING kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// ROI_POOLING is validated (nnhal/ops/roi_pooling.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::ROI_POOLING> : NoKernelsYet {};

}  // namespace nnhal
