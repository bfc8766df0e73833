#pragma once
/// \file
/// LESS kernels (see nnhal/ops/less.hpp).

#include "nnhal/kernels/common/boolean_ops.hpp"
#include "nnhal/ops/less.hpp"

namespace nnhal {

template <>
struct Kernels<OperationType::LESS> : kernels::boolean_ops::ComparisonFamily<kernels::boolean_ops::Less> {};
static_assert(kernels_cover_row<OperationType::LESS>());

}  // namespace nnhal
