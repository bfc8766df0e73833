#pragma once
/// \file
/// EXPAND_DIMS kernels (the row: nnhal/ops/expand_dims.hpp): shape inference and one
/// byte-copying kernel for every type.

#include <array>
#include <cstddef>
#include <cstdint>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/same_bytes.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/expand_dims.hpp"

namespace nnhal::kernels::expand_dims {

/// Inserts a 1 at `axis` in [-(rank + 1), rank + 1). Errors: the axis out of range, an output
/// rank above kMaxRank.
inline Status infer(const NodeIO& io) {
  const Dims& in = io.input(0).dims;
  const std::size_t rank = in.rank();
  if (rank + 1 > kMaxRank) return NNHAL_INVALID("output rank %zu is above %zu", rank + 1, kMaxRank);
  auto axis = resolve_axis(io.scalar<OperandType::INT32>(1), rank + 1, "");
  if (!axis) return std::move(axis.error());
  Dims out;
  for (std::size_t k = 0; k <= rank; ++k) {
    if (k == *axis) out.push_back(1);
    if (k < rank) out.push_back(in[k]);
  }
  return set_output(io, 0, out);
}

/// EXPAND_DIMS copies bytes, so one kernel serves every data type.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT16, OperandType::TENSOR_FLOAT32,
                                    OperandType::TENSOR_INT32, OperandType::TENSOR_QUANT8_ASYMM,
                                    OperandType::TENSOR_QUANT8_ASYMM_SIGNED};
  static Status infer(const NodeIO& io) { return expand_dims::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &copy_input_bytes;
  }
};

}  // namespace nnhal::kernels::expand_dims

namespace nnhal {

template <>
struct Kernels<OperationType::EXPAND_DIMS> : kernels::expand_dims::Family {};
static_assert(kernels_cover_row<OperationType::EXPAND_DIMS>());

}  // namespace nnhal
