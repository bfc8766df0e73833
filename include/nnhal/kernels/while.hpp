#pragma once
/// \file
/// WHILE: run by the control-flow executor, not by a kernel.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// WHILE has no kernel of its own: the executor runs it over its subgraphs
/// (nnhal/control/).
template <>
struct Kernels<OperationType::WHILE> : ControlFlowKernels {};

}  // namespace nnhal
