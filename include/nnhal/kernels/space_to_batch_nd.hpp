#pragma once
/// \file
/// SPACE_TO_BATCH_ND kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// SPACE_TO_BATCH_ND is validated (nnhal/ops/space_to_batch_nd.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::SPACE_TO_BATCH_ND> : NoKernelsYet {};

}  // namespace nnhal
