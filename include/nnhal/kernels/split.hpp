#pragma once
/// \file
/// SPLIT kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// SPLIT is validated (nnhal/ops/split.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::SPLIT> : NoKernelsYet {};

}  // namespace nnhal
