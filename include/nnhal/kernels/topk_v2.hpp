#pragma once
/// \file
/// TOPK_V2 kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// TOPK_V2 is validated (nnhal/ops/topk_v2.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::TOPK_V2> : NoKernelsYet {};

}  // namespace nnhal
