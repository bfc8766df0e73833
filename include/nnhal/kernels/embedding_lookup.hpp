#pragma once
/// \file
/// EMBEDDING_LOOKUP kernels (the row: nnhal/ops/embedding_lookup.hpp): shape inference and one
/// byte-moving kernel for every values type.

#include <array>
#include <cstddef>
#include <cstdint>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/copy.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/embedding_lookup.hpp"

namespace nnhal::kernels::embedding_lookup {

/// The values' shape with dimension 0 replaced by the number of lookups. Errors: lookups not
/// 1-D, values of rank below 2.
inline Status infer(const NodeIO& io) {
  const Dims& lookups = io.input(0).dims;
  const Dims& values = io.input(1).dims;
  if (lookups.rank() != 1) return NNHAL_INVALID("lookups must be 1-D, it has rank %zu", lookups.rank());
  if (values.rank() < 2) return NNHAL_INVALID("values must have rank >= 2, it has %zu", values.rank());
  Dims out = values;
  out[0] = lookups[0];
  return set_output(io, 0, out);
}

/// Checks every lookup against the number of rows first, then copies one row per lookup.
inline Status kernel(const NodeIO& io) {
  const auto lookups = io.in<OperandType::TENSOR_INT32>(0);
  const RtOperand& values = io.input(1);
  const std::uint32_t rows = values.dims[0];
  for (std::size_t i = 0; i < lookups.size(); ++i)
    if (lookups[i] < 0 || static_cast<std::uint32_t>(lookups[i]) >= rows)
      return NNHAL_INVALID("lookups[%zu] = %" PRId32 " is outside [0, %" PRIu32 ")", i, lookups[i],
                           rows);
  const std::size_t row = dims_product(values.dims, 1, values.dims.rank()) * element_size(values.type);
  std::byte* dst = io.output(0).data;
  for (std::size_t i = 0; i < lookups.size(); ++i, dst += row)
    copy_bytes(dst, values.data + static_cast<std::size_t>(lookups[i]) * row, row);
  return {};
}

/// EMBEDDING_LOOKUP moves bytes, so one kernel serves every values type (input 1).
struct Family : KernelFamily {
  static constexpr std::size_t key_input = 1;
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_INT32,
                                    OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_FLOAT16,
                                    OperandType::TENSOR_QUANT8_ASYMM_SIGNED};
  static Status infer(const NodeIO& io) { return embedding_lookup::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &kernel;
  }
};

}  // namespace nnhal::kernels::embedding_lookup

namespace nnhal {

template <>
struct Kernels<OperationType::EMBEDDING_LOOKUP> : kernels::embedding_lookup::Family {};
static_assert(kernels_cover_row<OperationType::EMBEDDING_LOOKUP>());

}  // namespace nnhal
