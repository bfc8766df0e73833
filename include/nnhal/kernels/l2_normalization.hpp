#pragma once
/// \file
/// L2_NORMALIZATION kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// L2_NORMALIZATION is validated (nnhal/ops/l2_normalization.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::L2_NORMALIZATION> : NoKernelsYet {};

}  // namespace nnhal
