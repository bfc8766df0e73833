#pragma once
/// \file
/// INSTANCE_NORMALIZATION kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// INSTANCE_NORMALIZATION is validated (nnhal/ops/instance_normalization.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::INSTANCE_NORMALIZATION> : NoKernelsYet {};

}  // namespace nnhal
