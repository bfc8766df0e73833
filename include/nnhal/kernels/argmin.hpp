#pragma once
/// \file
/// ARGMIN kernels (the row: nnhal/ops/argmin.hpp): the index of the smallest value along an axis
/// (nnhal/kernels/common/arg_min_max.hpp).

#include "nnhal/kernels/common/arg_min_max.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/argmin.hpp"

namespace nnhal {

template <>
struct Kernels<OperationType::ARGMIN> : kernels::arg_min_max::Family<false> {};
static_assert(kernels_cover_row<OperationType::ARGMIN>());

}  // namespace nnhal
