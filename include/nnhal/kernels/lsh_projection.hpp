#pragma once
/// \file
/// LSH_PROJECTION kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// LSH_PROJECTION is validated (nnhal/ops/lsh_projection.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::LSH_PROJECTION> : NoKernelsYet {};

}  // namespace nnhal
