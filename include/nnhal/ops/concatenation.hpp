#pragma once
/// \file
/// CONCATENATION (2): joins n >= 1 tensors of the same type and rank along an axis (the last
/// input); quantized inputs are requantized to the output's parameters when they differ.

#include <array>
#include <cmath>

#include "nnhal/ops/common/copy.hpp"
#include "nnhal/ops/common/v1_0_signatures.hpp"
#include "nnhal/ops/common/quantization.hpp"
#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

namespace concatenation {
inline constexpr std::array<Slot, 2> kInputs{{
    {"input", Role::Data, kSlotRepeated},
    {"axis", Role::Parameter},
}};
inline constexpr auto& kOutputs = v1_0::kSingleOutput;
/// {T (repeated, n >= 1), INT32} -> {T}: F32, QA8 1.0; F16 1.2; QAS8 1.3.
inline constexpr auto kSignatures = for_each_type(
    v1_0::float_quant_types(HalVersion::V1_0), [](OperandType t, HalVersion v) {
      return sig(v, TypeSeq({t, OperandType::INT32}, 0), {t});
    });

/// Input ranks <= 4 when known. QA8 needs 1.2 unless every input has the output's scale and
/// zeroPoint (requantization is a 1.2 feature); QAS8 mixes them freely.
inline Status validate(const OperationView& op, HalVersion& version) {
  const std::size_t n = op.input_count() - 1;
  for (std::size_t i = 0; i < n; ++i) NNHAL_TRY(v1_0::check_max_rank(op, i, 4));
  const Operand& out = op.output(0);
  if (out.type == OperandType::TENSOR_QUANT8_ASYMM) {
    for (std::size_t i = 0; i < n; ++i) {
      const Operand& in = op.input(i);
      if (in.scale != out.scale || in.zeroPoint != out.zeroPoint) v1_0::raise(version, HalVersion::V1_2);
    }
  }
  return {};
}

/// Output shape: the inputs' shape with the axis dimension summed. The axis must be in
/// [0, rank) (the reference executor rejects negative axes) and all other dimensions agree.
inline Status infer(const NodeIO& io) {
  const std::size_t n = io.input_count() - 1;
  const std::int32_t axis = io.scalar<OperandType::INT32>(n);
  const Dims& first = io.input(0).dims;
  const std::size_t rank = first.rank();
  if (axis < 0 || static_cast<std::size_t>(axis) >= rank)
    return NNHAL_INVALID("axis %d is outside [0, %zu)", axis, rank);
  Dims out = first;
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Dims& d = io.input(i).dims;
    if (d.rank() != rank) return NNHAL_INVALID("input %zu has rank %zu, input 0 has %zu", i, d.rank(), rank);
    for (std::size_t k = 0; k < rank; ++k)
      if (k != static_cast<std::size_t>(axis) && d[k] != first[k])
        return NNHAL_INVALID("input %zu dimension %zu is %u, input 0 has %u", i, k, d[k], first[k]);
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
            const std::int32_t v =
                static_cast<std::int32_t>(std::round(static_cast<float>(src[j]) * scale + bias)) + out.zero_point;
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

inline Expected<KernelFn> select(const NodeIO& io, std::span<std::byte, kNodeParamBytes>) {
  switch (io.output(0).type) {
    case OperandType::TENSOR_FLOAT32: return &kernel<float, false>;
    case OperandType::TENSOR_FLOAT16: return &kernel<Half, false>;
    case OperandType::TENSOR_QUANT8_ASYMM: return &kernel<std::uint8_t, true>;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: return &kernel<std::int8_t, true>;
    default: break;
  }
  return NNHAL_FAILURE("CONCATENATION has no kernel for this operand type");
}

inline constexpr OpImpl kImpl{&infer, &select};
}  // namespace concatenation

/// CONCATENATION in the operation table.
struct Concatenation : OperationDescriptor<OperationType::CONCATENATION> {
  static constexpr OperationInfo info{OperationType::CONCATENATION, "CONCATENATION",
                                      HalVersion::V1_0,             concatenation::kInputs,
                                      concatenation::kOutputs,      concatenation::kSignatures,
                                      &concatenation::validate,     &concatenation::kImpl,
                                      kOpAllowsZeroSized};
};

}  // namespace nnhal::ops
