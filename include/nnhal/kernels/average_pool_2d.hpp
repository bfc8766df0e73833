#pragma once
/// \file
/// AVERAGE_POOL_2D kernels (the row: nnhal/ops/average_pool_2d.hpp): the pooling core of
/// nnhal/kernels/common/pool.hpp, averaging the valid (unpadded) elements of each window.

#include "nnhal/kernels/common/pool.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/average_pool_2d.hpp"

namespace nnhal {

/// AVERAGE_POOL_2D's kernels, keyed by the input type (float32 also serves relaxed models).
template <>
struct Kernels<OperationType::AVERAGE_POOL_2D>
    : kernels::pool::Family<kernels::pool::Kind::kAverage, OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                            OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_ASYMM_SIGNED> {};
static_assert(kernels_cover_row<OperationType::AVERAGE_POOL_2D>());

}  // namespace nnhal
