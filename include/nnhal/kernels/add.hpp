#pragma once
/// \file
/// ADD kernels: elementwise sum with broadcasting (every element type).

#include <array>

#include "nnhal/kernels/common/arithmetic.hpp"
#include "nnhal/ops/add.hpp"

namespace nnhal {

/// ADD: the arithmetic family with Add.
template <>
struct Kernels<OperationType::ADD> : kernels::arithmetic::Family<kernels::arithmetic::Add> {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16, OperandType::TENSOR_INT32,
                                    OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_ASYMM_SIGNED};
};
static_assert(kernels_cover_row<OperationType::ADD>());

}  // namespace nnhal
