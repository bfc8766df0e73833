#pragma once
/// \file
/// LOGICAL_AND kernels (see nnhal/ops/logical_and.hpp).

#include "nnhal/kernels/common/boolean_ops.hpp"
#include "nnhal/ops/logical_and.hpp"

namespace nnhal {

template <>
struct Kernels<OperationType::LOGICAL_AND> : kernels::boolean_ops::LogicalFamily<kernels::boolean_ops::And> {};
static_assert(kernels_cover_row<OperationType::LOGICAL_AND>());

}  // namespace nnhal
