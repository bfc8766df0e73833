#pragma once
/// \file
/// CONCATENATION kernels (the row: nnhal/ops/concatenation.hpp): shape inference and one kernel per type.

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/copy.hpp"
#include "nnhal/kernels/common/quantization.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/concatenation.hpp"

namespace nnhal::kernels::concatenation {

/// Output shape: the inputs' shape with the axis dimension summed. The axis must be in
/// [0, rank) (the reference executor rejects negative axes) and all other dimensions agree.
inline Status infer(const NodeIO& io) {
  const std::size_t n = io.input_count() - 1;
  const std::int32_t axis = io.scalar<OperandType::INT32>(n);
  const Dims& first = io.input(0).dims;
  const std::size_t rank = first.rank();
  if (axis < 0 || static_cast<std::size_t>(axis) >= rank)
    return NNHAL_INVALID("axis %" PRId32 " is outside [0, %zu)", axis, rank);
  Dims out = first;
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Dims& d = io.input(i).dims;
    if (d.rank() != rank) return NNHAL_INVALID("input %zu has rank %zu, input 0 has %zu", i, d.rank(), rank);
    for (std::size_t k = 0; k < rank; ++k)
      if (k != static_cast<std::size_t>(axis) && d[k] != first[k])
        return NNHAL_INVALID("input %zu dimension %zu is %" PRIu32 ", input 0 has %" PRIu32, i, k,
                             d[k], first[k]);
    total += d[static_cast<std::size_t>(axis)];
  }
  if (total > UINT32_MAX) return NNHAL_INVALID("concatenated dimension overflows");
  out[static_cast<std::size_t>(axis)] = static_cast<std::uint32_t>(total);
  io.output(0).dims = out;
  return {};
}

/// Copies every input's slab for each outer index; quantized inputs whose parameters differ
/// from the output's are requantized with the reference formula
/// round(q * in_scale / out_scale - in_zp * in_scale / out_scale) + out_zp, clamped.
template <class E, bool Quantized>
Status kernel(const NodeIO& io) {
  const std::size_t n = io.input_count() - 1;
  const auto axis = static_cast<std::size_t>(io.scalar<OperandType::INT32>(n));
  const RtOperand& out = io.output(0);
  const std::size_t outer = dims_product(out.dims, 0, axis);
  const std::size_t inner = dims_product(out.dims, axis + 1, out.dims.rank());
  E* dst = reinterpret_cast<E*>(out.data);
  for (std::size_t o = 0; o < outer; ++o) {
    for (std::size_t i = 0; i < n; ++i) {
      const RtOperand& in = io.input(i);
      const std::size_t slab = in.dims[axis] * inner;
      const E* src = reinterpret_cast<const E*>(in.data) + o * slab;
      if constexpr (Quantized) {
        if (in.scale != out.scale || in.zero_point != out.zero_point) {
          const float scale = in.scale * (1.0f / out.scale);  // as the reference computes it
          const float bias = -static_cast<float>(in.zero_point) * scale;
          constexpr auto range = quant::storage_range<E>();
          for (std::size_t j = 0; j < slab; ++j) {
            // Saturated: an untrusted ratio of scales can take the value past the int range.
            const std::int32_t v = quant::saturating_add_int32(
                quant::saturating_int32(std::round(static_cast<float>(src[j]) * scale + bias)), out.zero_point);
            dst[j] = static_cast<E>(v < range.min ? range.min : (v > range.max ? range.max : v));
          }
          dst += slab;
          continue;
        }
      }
      copy_bytes(dst, src, slab * sizeof(E));
      dst += slab;
    }
  }
  return {};
}

/// CONCATENATION's kernels, keyed by the type of input 0.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                                    OperandType::TENSOR_QUANT8_ASYMM,
                                    OperandType::TENSOR_QUANT8_ASYMM_SIGNED};
  static Status infer(const NodeIO& io) { return concatenation::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &kernel<element_t<T>, is_quantized(T)>;
  }
};

}  // namespace nnhal::kernels::concatenation

namespace nnhal {

template <>
struct Kernels<OperationType::CONCATENATION> : kernels::concatenation::Family {};
static_assert(kernels_cover_row<OperationType::CONCATENATION>());

}  // namespace nnhal
