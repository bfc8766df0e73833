#pragma once
/// \file
/// BATCH_TO_SPACE_ND kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// BATCH_TO_SPACE_ND is validated (nnhal/ops/batch_to_space_nd.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::BATCH_TO_SPACE_ND> : NoKernelsYet {};

}  // namespace nnhal
