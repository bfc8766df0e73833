#pragma once
/// \file
/// MUL kernels: elementwise product with broadcasting (every element type).

#include <array>

#include "nnhal/kernels/common/arithmetic.hpp"
#include "nnhal/ops/mul.hpp"

namespace nnhal {

/// MUL: the arithmetic family with Mul.
template <>
struct Kernels<OperationType::MUL> : kernels::arithmetic::Family<kernels::arithmetic::Mul> {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16, OperandType::TENSOR_INT32,
                                    OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_ASYMM_SIGNED};
};
static_assert(kernels_cover_row<OperationType::MUL>());

}  // namespace nnhal
