#pragma once
/// \file
/// REDUCE_MIN kernels (the row: nnhal/ops/reduce_min.hpp): minimum over the given axes
/// (nnhal/kernels/common/reduce.hpp).

#include "nnhal/kernels/common/reduce.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/reduce_min.hpp"

namespace nnhal {

template <>
struct Kernels<OperationType::REDUCE_MIN>
    : kernels::reduce_common::Family<kernels::reduce_common::Min, OperandType::BOOL,
                                     kernels::reduce_common::kFloatQuant> {};
static_assert(kernels_cover_row<OperationType::REDUCE_MIN>());

}  // namespace nnhal
