#pragma once
/// \file
/// IF: run by the control-flow executor, not by a kernel.

#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

/// IF has no kernel of its own: the executor runs it over its subgraphs
/// (nnhal/control/).
template <>
struct Kernels<OperationType::IF> : ControlFlowKernels {};

}  // namespace nnhal
