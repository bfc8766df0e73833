#pragma once
/// \file
/// REDUCE_SUM kernels (the row: nnhal/ops/reduce_sum.hpp): sum over the given axes
/// (nnhal/kernels/common/reduce.hpp).

#include "nnhal/kernels/common/reduce.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/reduce_sum.hpp"

namespace nnhal {

template <>
struct Kernels<OperationType::REDUCE_SUM>
    : kernels::reduce_common::Family<kernels::reduce_common::Sum, OperandType::BOOL,
                                     kernels::reduce_common::kFloat> {};
static_assert(kernels_cover_row<OperationType::REDUCE_SUM>());

}  // namespace nnhal
