#pragma once
/// \file
/// LOGICAL_NOT kernels (see nnhal/ops/logical_not.hpp).

#include "nnhal/kernels/common/boolean_ops.hpp"
#include "nnhal/ops/logical_not.hpp"

namespace nnhal {

template <>
struct Kernels<OperationType::LOGICAL_NOT> : kernels::boolean_ops::LogicalNotFamily {};
static_assert(kernels_cover_row<OperationType::LOGICAL_NOT>());

}  // namespace nnhal
