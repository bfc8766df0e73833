#pragma once
/// \file
/// LOG_SOFTMAX kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// LOG_SOFTMAX is validated (nnhal/ops/log_softmax.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::LOG_SOFTMAX> : NoKernelsYet {};

}  // namespace nnhal
