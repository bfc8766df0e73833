#pragma once
/// \file
/// EMBEDDING_LOOKUP kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// EMBEDDING_LOOKUP is validated (nnhal/ops/embedding_lookup.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::EMBEDDING_LOOKUP> : NoKernelsYet {};

}  // namespace nnhal
