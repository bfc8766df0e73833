#pragma once
/// \file
/// HEATMAP_MAX_KEYPOINT kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// HEATMAP_MAX_KEYPOINT is validated (nnhal/ops/heatmap_max_keypoint.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::HEATMAP_MAX_KEYPOINT> : NoKernelsYet {};

}  // namespace nnhal
