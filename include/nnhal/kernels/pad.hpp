#pragma once
/// \file
/// PAD kernels (the row: nnhal/ops/pad.hpp): shape inference and a kernel per element size;
/// the pad value is the logical zero (the zeroPoint for quantized types; out q = in).

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/pad.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/pad.hpp"

namespace nnhal::kernels::pad {

template <OperandType T>
Status kernel(const NodeIO& io) {
  using E = element_t<T>;
  E zero{};
  if constexpr (is_quantized(T)) zero = static_cast<E>(io.output(0).zero_point);  // the reference pads with the output's zeroPoint
  std::byte value[sizeof(E)];
  std::memcpy(value, &zero, sizeof(E));
  pad_common::run(io, value);
  return {};
}

/// PAD's kernels, keyed by the input type.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_QUANT8_ASYMM,
                                    OperandType::TENSOR_FLOAT16, OperandType::TENSOR_QUANT8_ASYMM_SIGNED};
  static Status infer(const NodeIO& io) { return pad_common::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &kernel<T>;
  }
};

}  // namespace nnhal::kernels::pad

namespace nnhal {

template <>
struct Kernels<OperationType::PAD> : kernels::pad::Family {};
static_assert(kernels_cover_row<OperationType::PAD>());

}  // namespace nnhal
