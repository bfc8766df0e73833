#pragma once
/// \file
/// ELU kernels (the row: nnhal/ops/elu.hpp): elementwise `max(0, x) + min(0, alpha * (exp(x) - 1))`
/// over FLOAT32 and FLOAT16 (computed in float; alpha is input 1, a scalar of the matching float
/// type). Zero-sized inputs are refused: the reference's registration does not allow them
/// although the documentation does (HAL13.md i.22). FLOAT32 runs the SIMD family chosen at
/// prepare (nnhal/simd/activation_f32.hpp: the same formula with a vector exp within 2 ulp).

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>

#include "nnhal/kernels/common/elementwise.hpp"
#include "nnhal/kernels/common/simd_params.hpp"
#include "nnhal/simd/activation_f32.hpp"
#include "nnhal/ops/elu.hpp"

namespace nnhal::kernels::elu {

template <OperandType T>
Status kernel(const NodeIO& io) {
  const float alpha = elementwise::float_scalar<T>(io, 1);
  elementwise::map_float<T>(io, [alpha](float x) {
    return std::max(0.0f, x) + std::min(0.0f, alpha * (std::exp(x) - 1.0f));
  });
  return {};
}

/// FLOAT32 through the SIMD family chosen at prepare.
inline Status kernel_f32(const NodeIO& io) {
  const std::size_t n = static_cast<std::size_t>(io.input(0).dims.element_count());
  io.params<SimdParams<simd::ActivationF32>>().simd->elu(io.in_data<OperandType::TENSOR_FLOAT32>(0),
                                                         io.out_data<OperandType::TENSOR_FLOAT32>(0), n,
                                                         elementwise::float_scalar<OperandType::TENSOR_FLOAT32>(io, 1));
  return {};
}

/// ELU's kernels.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16};

  static Status infer(const NodeIO& io) { return elementwise::infer_same_shape(io, "ELU"); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare& prepare) {
    if constexpr (T == OperandType::TENSOR_FLOAT32) {
      if (prepare.reference) return &kernel<T>;
      prepare.store(simd_params(simd::activation_f32()));
      return &kernel_f32;
    } else {
      return &kernel<T>;
    }
  }
};

}  // namespace nnhal::kernels::elu

namespace nnhal {

template <>
struct Kernels<OperationType::ELU> : kernels::elu::Family {};
static_assert(kernels_cover_row<OperationType::ELU>());

}  // namespace nnhal
