#pragma once
/// \file
/// STRIDED_SLICE kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// STRIDED_SLICE is validated (nnhal/ops/strided_slice.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::STRIDED_SLICE> : NoKernelsYet {};

}  // namespace nnhal
