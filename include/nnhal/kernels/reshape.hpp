#pragma once
/// \file
/// RESHAPE kernels (the row: nnhal/ops/reshape.hpp): shape inference and one kernel per type.

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/reshape.hpp"

namespace nnhal::kernels::reshape {

/// Output shape from the values of input 1. Like the reference, every element of the shape
/// tensor is one output dimension (its own rank is not checked). Errors (GENERAL_FAILURE, as the
/// reference's failed prepare): more than one -1, an entry below -1 (the reference would
/// wrap it to a huge dimension), -1 next to a 0 entry (a division by zero in the reference),
/// element counts that differ, more than kMaxRank entries.
inline Status infer(const NodeIO& io) {
  const RtOperand& shape = io.input(1);
  const std::uint64_t count = shape.dims.element_count();
  if (count > kMaxRank)
    return NNHAL_FAILURE("RESHAPE target shape has %llu entries, at most %zu are supported",
                         static_cast<unsigned long long>(count), kMaxRank);
  if (count != 0 && shape.data == nullptr) return NNHAL_FAILURE("RESHAPE target shape has no value");
  const auto values = io.in<OperandType::TENSOR_INT32>(1);
  const std::uint64_t in_elements = io.input(0).dims.element_count();
  Dims out;
  std::uint64_t product = 1;
  std::size_t stretch = kMaxRank;  // index of the -1 entry, kMaxRank = none
  for (std::size_t i = 0; i < count; ++i) {
    const std::int32_t v = values[i];
    if (v == -1) {
      if (stretch != kMaxRank) return NNHAL_FAILURE("RESHAPE target shape has more than one -1");
      stretch = i;
      out.push_back(0);
      continue;
    }
    if (v < -1) return NNHAL_FAILURE("RESHAPE target shape entry %zu is %" PRId32, i, v);
    const auto uv = static_cast<std::uint64_t>(v);
    product = uv != 0 && product > UINT64_MAX / uv ? UINT64_MAX : product * uv;  // saturating
    out.push_back(static_cast<std::uint32_t>(v));
  }
  if (stretch != kMaxRank) {
    if (product == 0) return NNHAL_FAILURE("RESHAPE cannot infer -1 next to a 0 dimension");
    const std::uint64_t inferred = in_elements / product;
    if (inferred > UINT32_MAX) return NNHAL_FAILURE("RESHAPE inferred dimension too large");
    out[stretch] = static_cast<std::uint32_t>(inferred);
    product *= inferred;
  }
  if (product != in_elements)
    return NNHAL_FAILURE("RESHAPE target shape has %llu elements, the input has %llu",
                         static_cast<unsigned long long>(product),
                         static_cast<unsigned long long>(in_elements));
  RtOperand& o = io.output(0);
  o.dims = out;
  o.rank_known = true;
  return {};
}

/// Copies the bytes (nothing to do when the executor let output and input share a buffer).
inline Status kernel(const NodeIO& io) {
  const RtOperand& in = io.input(0);
  RtOperand& out = io.output(0);
  const std::uint64_t bytes = in.required_bytes();
  if (bytes == 0 || out.data == in.data) return {};
  if (bytes > out.length) return NNHAL_FAILURE("RESHAPE output buffer too small");
  std::memcpy(out.data, in.data, static_cast<std::size_t>(bytes));
  return {};
}

/// RESHAPE's kernel copies bytes (or nothing, when the output aliases the input).
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_QUANT8_ASYMM,
                                    OperandType::TENSOR_FLOAT16,
                                    OperandType::TENSOR_QUANT8_ASYMM_SIGNED};
  static Status infer(const NodeIO& io) { return reshape::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &kernel;
  }
};

}  // namespace nnhal::kernels::reshape

namespace nnhal {

template <>
struct Kernels<OperationType::RESHAPE> : kernels::reshape::Family {};
static_assert(kernels_cover_row<OperationType::RESHAPE>());

}  // namespace nnhal
