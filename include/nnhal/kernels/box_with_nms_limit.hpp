#pragma once
/// \file
/// BOX_WITH_NMS_LIMIT kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// BOX_WITH_NMS_LIMIT is validated (nnhal/ops/box_with_nms_limit.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::BOX_WITH_NMS_LIMIT> : NoKernelsYet {};

}  // namespace nnhal
