#pragma once
/// \file
/// DIV kernels: elementwise quotient with broadcasting; TENSOR_INT32 is floor division.

#include <array>

#include "nnhal/kernels/common/arithmetic.hpp"
#include "nnhal/ops/div.hpp"

namespace nnhal {

/// DIV: the arithmetic family with Div.
template <>
struct Kernels<OperationType::DIV> : kernels::arithmetic::Family<kernels::arithmetic::Div> {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16, OperandType::TENSOR_INT32};
  // Reference quirk (HAL13.md i.8): TENSOR_QUANT8_ASYMM_SIGNED passes the reference validation
  // at HAL 1.3 but the reference has no kernel for it; the support query reports it unsupported.
  static constexpr std::array no_kernel{OperandType::TENSOR_QUANT8_ASYMM_SIGNED};
};
static_assert(kernels_cover_row<OperationType::DIV>());

}  // namespace nnhal
