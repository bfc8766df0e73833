#pragma once
/// \file
/// CHANNEL_SHUFFLE kernels: none yet.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// CHANNEL_SHUFFLE is validated (nnhal/ops/channel_shuffle.hpp) but nnhal has no kernel for it yet.
template <>
struct Kernels<OperationType::CHANNEL_SHUFFLE> : NoKernelsYet {};

}  // namespace nnhal
