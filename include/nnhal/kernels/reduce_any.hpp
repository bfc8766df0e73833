#pragma once
/// \file
/// REDUCE_ANY kernels (the row: nnhal/ops/reduce_any.hpp): logical OR over the given axes
/// (nnhal/kernels/common/reduce.hpp).

#include "nnhal/kernels/common/reduce.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/reduce_any.hpp"

namespace nnhal {

template <>
struct Kernels<OperationType::REDUCE_ANY>
    : kernels::reduce_common::Family<kernels::reduce_common::Any, OperandType::BOOL,
                                     kernels::reduce_common::kBool> {};
static_assert(kernels_cover_row<OperationType::REDUCE_ANY>());

}  // namespace nnhal
