#pragma once
/// \file
/// HASHTABLE_LOOKUP kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// HASHTABLE_LOOKUP is validated (nnhal/ops/hashtable_lookup.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::HASHTABLE_LOOKUP> : NoKernelsYet {};

}  // namespace nnhal
