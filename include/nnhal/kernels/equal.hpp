#pragma once
/// \file
/// EQUAL kernels (see nnhal/ops/equal.hpp).

#include "nnhal/kernels/common/boolean_ops.hpp"
#include "nnhal/ops/equal.hpp"

namespace nnhal {

template <>
struct Kernels<OperationType::EQUAL> : kernels::boolean_ops::ComparisonFamily<kernels::boolean_ops::Equal> {};
static_assert(kernels_cover_row<OperationType::EQUAL>());

}  // namespace nnhal
