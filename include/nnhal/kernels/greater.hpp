#pragma once
/// \file
/// GREATER kernels (see nnhal/ops/greater.hpp).

#include "nnhal/kernels/common/boolean_ops.hpp"
#include "nnhal/ops/greater.hpp"

namespace nnhal {

template <>
struct Kernels<OperationType::GREATER> : kernels::boolean_ops::ComparisonFamily<kernels::boolean_ops::Greater> {};
static_assert(kernels_cover_row<OperationType::GREATER>());

}  // namespace nnhal
