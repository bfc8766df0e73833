#pragma once
/// \file
/// NOT_EQUAL kernels (see nnhal/ops/not_equal.hpp).

#include "nnhal/kernels/common/boolean_ops.hpp"
#include "nnhal/ops/not_equal.hpp"

namespace nnhal {

template <>
struct Kernels<OperationType::NOT_EQUAL> : kernels::boolean_ops::ComparisonFamily<kernels::boolean_ops::NotEqual> {};
static_assert(kernels_cover_row<OperationType::NOT_EQUAL>());

}  // namespace nnhal
