#pragma once
/// \file
/// GENERATE_PROPOSALS kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// GENERATE_PROPOSALS is validated (nnhal/ops/generate_proposals.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::GENERATE_PROPOSALS> : NoKernelsYet {};

}  // namespace nnhal
