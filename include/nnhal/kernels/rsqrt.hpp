#pragma once
/// \file
/// RSQRT kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// RSQRT is validated (nnhal/ops/rsqrt.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::RSQRT> : NoKernelsYet {};

}  // namespace nnhal
