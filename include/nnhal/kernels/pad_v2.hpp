#pragma once
/// \file
/// PAD_V2 kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// PAD_V2 is validated (nnhal/ops/pad_v2.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::PAD_V2> : NoKernelsYet {};

}  // namespace nnhal
