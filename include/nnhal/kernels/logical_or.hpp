#pragma once
/// \file
/// LOGICAL_OR kernels (see nnhal/ops/logical_or.hpp).

#include "nnhal/kernels/common/boolean_ops.hpp"
#include "nnhal/ops/logical_or.hpp"

namespace nnhal {

template <>
struct Kernels<OperationType::LOGICAL_OR> : kernels::boolean_ops::LogicalFamily<kernels::boolean_ops::Or> {};
static_assert(kernels_cover_row<OperationType::LOGICAL_OR>());

}  // namespace nnhal
