#pragma once
/// \file
/// SUB kernels: elementwise difference with broadcasting (every element type).

#include <array>

#include "nnhal/kernels/common/arithmetic.hpp"
#include "nnhal/ops/sub.hpp"

namespace nnhal {

/// SUB: the arithmetic family with Sub.
template <>
struct Kernels<OperationType::SUB> : kernels::arithmetic::Family<kernels::arithmetic::Sub> {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16, OperandType::TENSOR_INT32,
                                    OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_ASYMM_SIGNED};
};
static_assert(kernels_cover_row<OperationType::SUB>());

}  // namespace nnhal
