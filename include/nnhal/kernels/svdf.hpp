#pragma once
/// \file
/// SVDF kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// SVDF is validated (nnhal/ops/svdf.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::SVDF> : NoKernelsYet {};

}  // namespace nnhal
