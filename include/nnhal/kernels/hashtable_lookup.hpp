#pragma once
/// \file
/// HASHTABLE_LOOKUP kernels (the row: nnhal/ops/hashtable_lookup.hpp): shape inference and one
/// byte-moving kernel for every values type.

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/copy.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/hashtable_lookup.hpp"

namespace nnhal::kernels::hashtable_lookup {

/// output: the values' shape with dimension 0 replaced by the number of lookups; hits: [k].
/// Errors: lookups or keys not 1-D, values of rank 0, a keys count that differs from the
/// number of value rows.
inline Status infer(const NodeIO& io) {
  const Dims& lookups = io.input(0).dims;
  const Dims& keys = io.input(1).dims;
  const Dims& values = io.input(2).dims;
  if (lookups.rank() != 1) return NNHAL_INVALID("lookups must be 1-D, it has rank %zu", lookups.rank());
  if (keys.rank() != 1) return NNHAL_INVALID("keys must be 1-D, it has rank %zu", keys.rank());
  if (values.rank() < 1) return NNHAL_INVALID("values must have rank >= 1");
  if (keys[0] != values[0])
    return NNHAL_INVALID("%" PRIu32 " keys for %" PRIu32 " value rows", keys[0], values[0]);
  Dims out = values;
  out[0] = lookups[0];
  NNHAL_TRY(set_output(io, 0, out));
  return set_output(io, 1, Dims{lookups[0]});
}

/// Binary search of each lookup in the keys (sorted ascending, as the operation requires; an
/// unsorted list only gives misses, never an out-of-range read). A hit copies the value row and
/// sets hits[i] = 1; a miss writes a row of zero bytes and hits[i] = 0, as the reference does
/// (memset, also for quantized values).
inline Status kernel(const NodeIO& io) {
  const auto lookups = io.in<OperandType::TENSOR_INT32>(0);
  const auto keys = io.in<OperandType::TENSOR_INT32>(1);
  const RtOperand& values = io.input(2);
  const std::size_t row = dims_product(values.dims, 1, values.dims.rank()) * element_size(values.type);
  std::byte* dst = io.output(0).data;
  auto* hits = reinterpret_cast<std::uint8_t*>(io.output(1).data);
  const std::size_t n = keys.size();
  for (std::size_t i = 0; i < lookups.size(); ++i, dst += row) {
    std::size_t lo = 0, hi = n;
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (keys[mid] < lookups[i])
        lo = mid + 1;
      else
        hi = mid;
    }
    const bool hit = lo < n && keys[lo] == lookups[i];
    if (hit)
      copy_bytes(dst, values.data + lo * row, row);
    else if (row != 0)
      std::memset(dst, 0, row);
    hits[i] = hit ? 1 : 0;
  }
  return {};
}

/// HASHTABLE_LOOKUP moves bytes, so one kernel serves every values type (input 2).
struct Family : KernelFamily {
  static constexpr std::size_t key_input = 2;
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_INT32,
                                    OperandType::TENSOR_QUANT8_ASYMM};
  static Status infer(const NodeIO& io) { return hashtable_lookup::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &kernel;
  }
};

}  // namespace nnhal::kernels::hashtable_lookup

namespace nnhal {

template <>
struct Kernels<OperationType::HASHTABLE_LOOKUP> : kernels::hashtable_lookup::Family {};
static_assert(kernels_cover_row<OperationType::HASHTABLE_LOOKUP>());

}  // namespace nnhal
