#pragma once
/// \file
/// REDUCE_MAX kernels (the row: nnhal/ops/reduce_max.hpp): maximum over the given axes
/// (nnhal/kernels/common/reduce.hpp).

#include "nnhal/kernels/common/reduce.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/reduce_max.hpp"

namespace nnhal {

template <>
struct Kernels<OperationType::REDUCE_MAX>
    : kernels::reduce_common::Family<kernels::reduce_common::Max, OperandType::BOOL,
                                     kernels::reduce_common::kFloatQuant> {};
static_assert(kernels_cover_row<OperationType::REDUCE_MAX>());

}  // namespace nnhal
