#pragma once
/// \file
/// POW kernels (the row: nnhal/ops/pow.hpp): `base ^ exponent` elementwise with broadcasting, over
/// FLOAT32 and FLOAT16 (computed in float, as the reference does).

#include <array>
#include <cmath>
#include <cstddef>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/broadcast.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/pow.hpp"

namespace nnhal::kernels::pow {

template <OperandType T>
Status kernel(const NodeIO& io) {
  const auto base = io.in<T>(0);
  const auto exponent = io.in<T>(1);
  const auto o = io.out<T>(0);
  broadcast_for_each(o.dims(), base.dims(), exponent.dims(), [&](std::size_t i, std::size_t ib, std::size_t ie) {
    const float r = std::pow(static_cast<float>(base[ib]), static_cast<float>(exponent[ie]));
    if constexpr (T == OperandType::TENSOR_FLOAT16)
      o[i] = Half(r);
    else
      o[i] = r;
  });
  return {};
}

/// POW's kernels.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16};

  static Status infer(const NodeIO& io) {
    auto shape = broadcast_shape(io.input(0).dims, io.input(1).dims);
    if (!shape) return std::move(shape.error().prefix("POW"));
    io.output(0).dims = *shape;
    io.output(0).rank_known = true;
    return {};
  }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &kernel<T>;
  }
};

}  // namespace nnhal::kernels::pow

namespace nnhal {

template <>
struct Kernels<OperationType::POW> : kernels::pow::Family {};
static_assert(kernels_cover_row<OperationType::POW>());

}  // namespace nnhal
