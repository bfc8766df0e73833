#pragma once
/// \file
/// RANK kernels (the row: nnhal/ops/rank.hpp): the rank of input 0 as an INT32 scalar, for
/// every tensor type the row accepts (the kernel reads only the shape).

#include <array>
#include <cstdint>
#include <cstring>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/rank.hpp"

namespace nnhal::kernels::rank {

/// The output is a scalar: no dimensions.
inline Status infer(const NodeIO& io) {
  RtOperand& out = io.output(0);
  out.dims = Dims{};
  out.rank_known = true;
  return {};
}

inline Status kernel(const NodeIO& io) {
  const RtOperand& in = io.input(0);
  if (!in.rank_known) return NNHAL_INVALID("RANK input 0 has no known rank");
  const auto r = static_cast<std::int32_t>(in.dims.rank());
  RtOperand& out = io.output(0);
  if (out.data == nullptr || out.length < sizeof r) return NNHAL_FAILURE("RANK output buffer too small");
  std::memcpy(out.data, &r, sizeof r);
  return {};
}

/// RANK's one kernel, for every input type.
struct Family : KernelFamily {
  static constexpr std::array types{
      OperandType::TENSOR_FLOAT16,       OperandType::TENSOR_FLOAT32,
      OperandType::TENSOR_INT32,         OperandType::TENSOR_QUANT8_ASYMM,
      OperandType::TENSOR_QUANT16_SYMM,  OperandType::TENSOR_BOOL8,
      OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL, OperandType::TENSOR_QUANT16_ASYMM,
      OperandType::TENSOR_QUANT8_SYMM,   OperandType::TENSOR_QUANT8_ASYMM_SIGNED};

  static Status infer(const NodeIO& io) { return rank::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &kernel;
  }
};

}  // namespace nnhal::kernels::rank

namespace nnhal {

template <>
struct Kernels<OperationType::RANK> : kernels::rank::Family {};
static_assert(kernels_cover_row<OperationType::RANK>());

}  // namespace nnhal
