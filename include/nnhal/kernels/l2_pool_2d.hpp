#pragma once
/// \file
/// L2_POOL_2D kernels (the row: nnhal/ops/l2_pool_2d.hpp): the pooling core of
/// nnhal/kernels/common/pool.hpp, sqrt(mean of squares) over the valid (unpadded) elements of
/// each window. Float types only, as the row.

#include "nnhal/kernels/common/pool.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/l2_pool_2d.hpp"

namespace nnhal {

/// L2_POOL_2D's kernels, keyed by the input type (float32 also serves relaxed models).
template <>
struct Kernels<OperationType::L2_POOL_2D>
    : kernels::pool::Family<kernels::pool::Kind::kL2, OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16> {};
static_assert(kernels_cover_row<OperationType::L2_POOL_2D>());

}  // namespace nnhal
