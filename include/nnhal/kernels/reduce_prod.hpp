#pragma once
/// \file
/// REDUCE_PROD kernels (the row: nnhal/ops/reduce_prod.hpp): product over the given axes
/// (nnhal/kernels/common/reduce.hpp).

#include "nnhal/kernels/common/reduce.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/reduce_prod.hpp"

namespace nnhal {

template <>
struct Kernels<OperationType::REDUCE_PROD>
    : kernels::reduce_common::Family<kernels::reduce_common::Prod, OperandType::BOOL,
                                     kernels::reduce_common::kFloat> {};
static_assert(kernels_cover_row<OperationType::REDUCE_PROD>());

}  // namespace nnhal
