#pragma once
/// \file
/// AXIS_ALIGNED_BBOX_TRANSFORM kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// AXIS_ALIGNED_BBOX_TRANSFORM is validated (nnhal/ops/axis_aligned_bbox_transform.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::AXIS_ALIGNED_BBOX_TRANSFORM> : NoKernelsYet {};

}  // namespace nnhal
