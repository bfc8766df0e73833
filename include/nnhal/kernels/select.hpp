#pragma once
/// \file
/// SELECT kernels (the row: nnhal/ops/select.hpp): `condition ? input1 : input2` elementwise, over
/// FLOAT32, FLOAT16, TENSOR_INT32 and both quant8 types (keyed by input 1). The three inputs must
/// have one shape (no broadcasting, as in the reference); quantized inputs are requantized to the
/// output's quantization.

#include <array>
#include <cstddef>
#include <cstdint>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/quantization.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/select.hpp"

namespace nnhal::kernels::select {

/// Output shape = the common shape of the three inputs.
inline Status infer(const NodeIO& io) {
  const Dims& cond = io.input(0).dims;
  const Dims& a = io.input(1).dims;
  const Dims& b = io.input(2).dims;
  if (!(cond == a) || !(a == b))
    return NNHAL_INVALID("SELECT condition, input1 and input2 must have the same shape (ranks %zu, %zu, %zu)",
                         cond.rank(), a.rank(), b.rank());
  io.output(0).dims = a;
  io.output(0).rank_known = true;
  return {};
}

template <OperandType T>
Status kernel(const NodeIO& io) {
  using E = element_t<T>;
  const std::size_t n = static_cast<std::size_t>(io.input(1).dims.element_count());
  const auto* cond = io.in_data<OperandType::TENSOR_BOOL8>(0);
  const E* a = io.in_data<T>(1);
  const E* b = io.in_data<T>(2);
  E* out = io.out_data<T>(0);
  if constexpr (T == OperandType::TENSOR_QUANT8_ASYMM || T == OperandType::TENSOR_QUANT8_ASYMM_SIGNED) {
    const RtOperand &qa = io.input(1), &qb = io.input(2), &qo = io.output(0);
    for (std::size_t i = 0; i < n; ++i)
      out[i] = cond[i] ? quant::requantize<E>(a[i], qa.scale, qa.zero_point, qo.scale, qo.zero_point)
                       : quant::requantize<E>(b[i], qb.scale, qb.zero_point, qo.scale, qo.zero_point);
  } else {
    for (std::size_t i = 0; i < n; ++i) out[i] = cond[i] ? a[i] : b[i];
  }
  return {};
}

/// SELECT's kernels, keyed by input 1.
struct Family : KernelFamily {
  static constexpr std::size_t key_input = 1;
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                                    OperandType::TENSOR_INT32, OperandType::TENSOR_QUANT8_ASYMM,
                                    OperandType::TENSOR_QUANT8_ASYMM_SIGNED};

  static Status infer(const NodeIO& io) { return select::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &kernel<T>;
  }
};

}  // namespace nnhal::kernels::select

namespace nnhal {

template <>
struct Kernels<OperationType::SELECT> : kernels::select::Family {};
static_assert(kernels_cover_row<OperationType::SELECT>());

}  // namespace nnhal
