#pragma once
/// \file
/// FILL kernels (the row: nnhal/ops/fill.hpp): a tensor of the shape held in input 0 (a 1-D
/// TENSOR_INT32, read by shape inference) with every element set to input 1, over FLOAT32,
/// FLOAT16 and TENSOR_INT32 (keyed by the value scalar's type, which follows the output's).

#include <array>
#include <cstddef>
#include <cstdint>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/fill.hpp"

namespace nnhal::kernels::fill {

/// Output shape = the values of input 0, which must be a 1-D tensor of non-negative sizes.
inline Status infer(const NodeIO& io) {
  const RtOperand& dims = io.input(0);
  if (dims.dims.rank() != 1) return NNHAL_INVALID("FILL input 0 (dims) has rank %zu, it must be 1", dims.dims.rank());
  const std::size_t rank = dims.dims[0];
  if (rank > kMaxRank) return NNHAL_INVALID("FILL output rank %zu exceeds the supported maximum %zu", rank, kMaxRank);
  if (rank != 0 && dims.data == nullptr) return NNHAL_INVALID("FILL input 0 (dims) has no value");
  const std::int32_t* d = io.in_data<OperandType::TENSOR_INT32>(0);
  RtOperand& out = io.output(0);
  out.dims.resize(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    if (d[i] < 0)
      return NNHAL_INVALID("FILL input 0 (dims) entry %zu is negative (%" PRId32 ")", i, d[i]);
    out.dims[i] = static_cast<std::uint32_t>(d[i]);
  }
  out.rank_known = true;
  return {};
}

/// Key type (the value scalar's) -> output tensor type.
template <OperandType T>
inline constexpr OperandType kOutputType = T == OperandType::FLOAT16   ? OperandType::TENSOR_FLOAT16
                                           : T == OperandType::FLOAT32 ? OperandType::TENSOR_FLOAT32
                                                                       : OperandType::TENSOR_INT32;

template <OperandType T>
Status kernel(const NodeIO& io) {
  constexpr OperandType Out = kOutputType<T>;
  const element_t<T> value = io.scalar<T>(1);
  const std::size_t n = static_cast<std::size_t>(io.output(0).dims.element_count());
  element_t<Out>* out = io.out_data<Out>(0);
  for (std::size_t i = 0; i < n; ++i) out[i] = value;
  return {};
}

/// FILL's kernels, keyed by input 1 (the value).
struct Family : KernelFamily {
  static constexpr std::size_t key_input = 1;
  static constexpr std::array types{OperandType::FLOAT32, OperandType::FLOAT16, OperandType::INT32};

  static Status infer(const NodeIO& io) { return fill::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &kernel<T>;
  }
};

}  // namespace nnhal::kernels::fill

namespace nnhal {

template <>
struct Kernels<OperationType::FILL> : kernels::fill::Family {};
static_assert(kernels_cover_row<OperationType::FILL>());

}  // namespace nnhal
