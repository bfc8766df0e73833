#pragma once
/// \file
/// LESS_EQUAL kernels (see nnhal/ops/less_equal.hpp).

#include "nnhal/kernels/common/boolean_ops.hpp"
#include "nnhal/ops/less_equal.hpp"

namespace nnhal {

template <>
struct Kernels<OperationType::LESS_EQUAL> : kernels::boolean_ops::ComparisonFamily<kernels::boolean_ops::LessEqual> {};
static_assert(kernels_cover_row<OperationType::LESS_EQUAL>());

}  // namespace nnhal
