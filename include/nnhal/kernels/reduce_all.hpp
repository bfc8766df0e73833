#pragma once
/// \file
/// REDUCE_ALL kernels (the row: nnhal/ops/reduce_all.hpp): logical AND over the given axes
/// (nnhal/kernels/common/reduce.hpp).

#include "nnhal/kernels/common/reduce.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/reduce_all.hpp"

namespace nnhal {

template <>
struct Kernels<OperationType::REDUCE_ALL>
    : kernels::reduce_common::Family<kernels::reduce_common::All, OperandType::BOOL,
                                     kernels::reduce_common::kBool> {};
static_assert(kernels_cover_row<OperationType::REDUCE_ALL>());

}  // namespace nnhal
