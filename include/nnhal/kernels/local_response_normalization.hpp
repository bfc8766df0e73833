#pragma once
/// \file
/// LOCAL_RESPONSE_NORMALIZATION kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// LOCAL_RESPONSE_NORMALIZATION is validated (nnhal/ops/local_response_normalization.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::LOCAL_RESPONSE_NORMALIZATION> : NoKernelsYet {};

}  // namespace nnhal
