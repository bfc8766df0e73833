#pragma once
/// \file
/// ARGMAX kernels (the row: nnhal/ops/argmax.hpp): the index of the largest value along an axis
/// (nnhal/kernels/common/arg_min_max.hpp).

#include "nnhal/kernels/common/arg_min_max.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/argmax.hpp"

namespace nnhal {

template <>
struct Kernels<OperationType::ARGMAX> : kernels::arg_min_max::Family<true> {};
static_assert(kernels_cover_row<OperationType::ARGMAX>());

}  // namespace nnhal
