#pragma once
/// \file
/// GREATER_EQUAL kernels (see nnhal/ops/greater_equal.hpp).

#include "nnhal/kernels/common/boolean_ops.hpp"
#include "nnhal/ops/greater_equal.hpp"

namespace nnhal {

template <>
struct Kernels<OperationType::GREATER_EQUAL> : kernels::boolean_ops::ComparisonFamily<kernels::boolean_ops::GreaterEqual> {};
static_assert(kernels_cover_row<OperationType::GREATER_EQUAL>());

}  // namespace nnhal
