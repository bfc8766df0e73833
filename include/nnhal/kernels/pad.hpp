#pragma once
/// \file
/// PAD kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// PAD is validated (nnhal/ops/pad.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::PAD> : NoKernelsYet {};

}  // namespace nnhal
