#pragma once
/// \file
/// ROI_ALIGN kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// ROI_ALIGN is validated (nnhal/ops/roi_align.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::ROI_ALIGN> : NoKernelsYet {};

}  // namespace nnhal
