#pragma once
/// \file
/// CAST kernels (the row: nnhal/ops/cast.hpp): shape inference and one kernel per type.

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/cast.hpp"

namespace nnhal::kernels::cast {

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

/// CAST's kernels, keyed by the input type: a conversion to the output type among the four
/// convertible types, a byte copy for identity casts.
struct Family : KernelFamily {
  static constexpr std::array types{
      OperandType::TENSOR_FLOAT16,       OperandType::TENSOR_FLOAT32,
      OperandType::TENSOR_INT32,         OperandType::TENSOR_QUANT8_ASYMM,
      OperandType::TENSOR_BOOL8,         OperandType::TENSOR_QUANT16_ASYMM,
      OperandType::TENSOR_QUANT16_SYMM,  OperandType::TENSOR_QUANT8_ASYMM_SIGNED,
      OperandType::TENSOR_QUANT8_SYMM};
  static Status infer(const NodeIO& io) { return cast::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO& io, KernelPrepare&) {
    if (io.output(0).type == T) return &kernel_copy;
    if constexpr (T == OperandType::TENSOR_FLOAT16 || T == OperandType::TENSOR_FLOAT32 ||
                  T == OperandType::TENSOR_INT32 || T == OperandType::TENSOR_QUANT8_ASYMM)
      return select_to<T>(io.output(0).type);
    else
      return NNHAL_FAILURE("CAST from %s has no kernel to %s", to_string(T).data(),
                           to_string(io.output(0).type).data());
  }
};

}  // namespace nnhal::kernels::cast

namespace nnhal {

template <>
struct Kernels<OperationType::CAST> : kernels::cast::Family {};
static_assert(kernels_cover_row<OperationType::CAST>());

}  // namespace nnhal
