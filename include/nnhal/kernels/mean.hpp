#pragma once
/// \file
/// MEAN kernels (the row: nnhal/ops/mean.hpp): mean (keep_dims is an INT32, > 0 keeps) over the given axes
/// (nnhal/kernels/common/reduce.hpp).

#include "nnhal/kernels/common/reduce.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/mean.hpp"

namespace nnhal {

template <>
struct Kernels<OperationType::MEAN>
    : kernels::reduce_common::Family<kernels::reduce_common::Mean, OperandType::INT32,
                                     kernels::reduce_common::kFloatQuant> {};
static_assert(kernels_cover_row<OperationType::MEAN>());

}  // namespace nnhal
