#pragma once
/// \file
/// DETECTION_POSTPROCESSING kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// DETECTION_POSTPROCESSING is validated (nnhal/ops/detection_postprocessing.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::DETECTION_POSTPROCESSING> : NoKernelsYet {};

}  // namespace nnhal
