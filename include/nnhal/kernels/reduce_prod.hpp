#pragma once
/// \file
/// REDUCE_PROD kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// REDUCE_PROD is validated (nnhal/ops/reduce_prod.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::REDUCE_PROD> : NoKernelsYet {};

}  // namespace nnhal
