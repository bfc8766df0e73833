#pragma once
/// \file
/// CAST (45): converts every element to the output type (same shape). Quantization parameters
/// are ignored: TENSOR_QUANT8_ASYMM is treated as raw uint8.

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>

#include "nnhal/exec/operand.hpp"
#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

namespace cast {

inline constexpr std::array<Slot, 1> kInputs{{{"input", Role::Data}}};
inline constexpr std::array<Slot, 1> kOutputs{{{"output", Role::Data}}};

/// The four types CAST converts between (1.2).
inline constexpr std::array<OperandType, 4> kConvertible{{
    OperandType::TENSOR_FLOAT16, OperandType::TENSOR_FLOAT32, OperandType::TENSOR_INT32,
    OperandType::TENSOR_QUANT8_ASYMM}};
/// Types CAST accepts only as identity casts (1.3).
inline constexpr std::array<OperandType, 5> kIdentityOnly{{
    OperandType::TENSOR_BOOL8, OperandType::TENSOR_QUANT16_ASYMM, OperandType::TENSOR_QUANT16_SYMM,
    OperandType::TENSOR_QUANT8_ASYMM_SIGNED, OperandType::TENSOR_QUANT8_SYMM}};

/// Every T -> U of kConvertible at 1.2, then T -> T of kIdentityOnly at 1.3.
inline constexpr auto kSignatures = [] {
  std::array<Signature, kConvertible.size() * kConvertible.size() + kIdentityOnly.size()> out{};
  std::size_t at = 0;
  for (OperandType t : kConvertible)
    for (OperandType u : kConvertible) out[at++] = sig(HalVersion::V1_2, {t}, {u});
  for (OperandType t : kIdentityOnly) out[at++] = sig(HalVersion::V1_3, {t}, {t});
  return out;
}();

/// When both ranks are known and every output dimension is known, the declared dimensions must be
/// equal. Reference quirk: an unknown (0) input dimension against a known output dimension is
/// rejected too, since the reference compares the declared lists as they are.
inline Status validate(const OperationView& op, HalVersion&) {
  const auto& in = op.input(0).dimensions;
  const auto& out = op.output(0).dimensions;
  if (in.empty() || out.empty()) return {};
  for (std::uint32_t d : out)
    if (d == 0) return {};
  if (in != out) return NNHAL_INVALID("CAST output 0 must have the shape of input 0");
  return {};
}

/// Output shape = input shape.
inline Status infer(const NodeIO& io) {
  RtOperand& out = io.output(0);
  out.dims = io.input(0).dims;
  out.rank_known = true;
  return {};
}

/// Converts one element as the reference's static_cast does, without its undefined cases:
/// to uint8 clamps to [0, 255] first (reference behaviour; NaN -> 0 here); float to int32
/// truncates toward zero, clamped to the int32 range, NaN -> 0 (the reference's static_cast is
/// undefined there). int32 -> half goes through float, which is exact below 2^24 and rounds to
/// infinity above half's range, so it equals a direct rounding.
template <class To, class From>
To convert(From v) noexcept {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (std::is_same_v<From, Half>) {
    return convert<To>(static_cast<float>(v));
  } else if constexpr (std::is_same_v<To, Half>) {
    return Half(static_cast<float>(v));
  } else if constexpr (std::is_same_v<To, std::uint8_t>) {
    if constexpr (std::is_same_v<From, float>) {
      if (std::isnan(v)) return 0;
    }
    if (v < 0) return 0;
    if (v > 255) return 255;
    return static_cast<std::uint8_t>(v);
  } else if constexpr (std::is_same_v<To, std::int32_t> && std::is_same_v<From, float>) {
    if (std::isnan(v)) return 0;
    if (v >= 2147483648.0f) return INT32_MAX;
    if (v < -2147483648.0f) return INT32_MIN;
    return static_cast<std::int32_t>(v);
  } else {
    return static_cast<To>(v);
  }
}

template <OperandType In, OperandType Out>
Status kernel_convert(const NodeIO& io) {
  const auto in = io.in<In>(0);
  const auto out = io.out<Out>(0);
  const std::size_t n = in.size();
  for (std::size_t i = 0; i < n; ++i) out[i] = convert<element_t<Out>>(in[i]);
  return {};
}

/// Identity cast: copies the bytes.
inline Status kernel_copy(const NodeIO& io) {
  const RtOperand& in = io.input(0);
  RtOperand& out = io.output(0);
  const std::uint64_t bytes = in.required_bytes();
  if (bytes == 0 || out.data == in.data) return {};
  if (bytes > out.length) return NNHAL_FAILURE("CAST output buffer too small");
  std::memcpy(out.data, in.data, static_cast<std::size_t>(bytes));
  return {};
}

template <OperandType In>
Expected<KernelFn> select_to(OperandType out) {
  switch (out) {
    case OperandType::TENSOR_FLOAT16: return &kernel_convert<In, OperandType::TENSOR_FLOAT16>;
    case OperandType::TENSOR_FLOAT32: return &kernel_convert<In, OperandType::TENSOR_FLOAT32>;
    case OperandType::TENSOR_INT32: return &kernel_convert<In, OperandType::TENSOR_INT32>;
    case OperandType::TENSOR_QUANT8_ASYMM: return &kernel_convert<In, OperandType::TENSOR_QUANT8_ASYMM>;
    default: break;
  }
  return NNHAL_FAILURE("CAST has no kernel for this output type");
}

inline Expected<KernelFn> select(const NodeIO& io, std::span<std::byte, kNodeParamBytes>) {
  const OperandType in = io.input(0).type, out = io.output(0).type;
  if (in == out) return &kernel_copy;
  switch (in) {
    case OperandType::TENSOR_FLOAT16: return select_to<OperandType::TENSOR_FLOAT16>(out);
    case OperandType::TENSOR_FLOAT32: return select_to<OperandType::TENSOR_FLOAT32>(out);
    case OperandType::TENSOR_INT32: return select_to<OperandType::TENSOR_INT32>(out);
    case OperandType::TENSOR_QUANT8_ASYMM: return select_to<OperandType::TENSOR_QUANT8_ASYMM>(out);
    default: break;
  }
  return NNHAL_FAILURE("CAST has no kernel for this input type");
}

inline constexpr OpImpl kImpl{&infer, &select};
}  // namespace cast

/// CAST in the operation table.
struct Cast : OperationDescriptor<OperationType::CAST> {
  static constexpr OperationInfo info{OperationType::CAST, "CAST",         HalVersion::V1_2,
                                      cast::kInputs,       cast::kOutputs, cast::kSignatures,
                                      &cast::validate,     &cast::kImpl};
};

}  // namespace nnhal::ops
