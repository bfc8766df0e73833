#pragma once
/// \file
/// LOGISTIC kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// LOGISTIC is validated (nnhal/ops/logistic.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::LOGISTIC> : NoKernelsYet {};

}  // namespace nnhal
