#pragma once
/// \file
/// PAD_V2 kernels (the row: nnhal/ops/pad_v2.hpp): shape inference and a kernel per type; the
/// pad value is input 2 (FLOAT32 / FLOAT16, or for quantized tensors an INT32 already in the
/// input's quantized domain).

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/pad.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/pad_v2.hpp"

namespace nnhal::kernels::pad_v2 {

/// The pad value as an element of type T. A quantized pad value outside the storage range is
/// an error here (the reference would silently wrap it with a static_cast).
template <OperandType T>
Expected<element_t<T>> pad_value(const NodeIO& io) {
  using E = element_t<T>;
  if constexpr (T == OperandType::TENSOR_FLOAT32) {
    return io.scalar<OperandType::FLOAT32>(2);
  } else if constexpr (T == OperandType::TENSOR_FLOAT16) {
    return io.scalar<OperandType::FLOAT16>(2);
  } else {
    const std::int32_t v = io.scalar<OperandType::INT32>(2);
    if (v < std::numeric_limits<E>::min() || v > std::numeric_limits<E>::max())
      return NNHAL_INVALID("pad value %" PRId32 " is outside the range of %s", v,
                           to_string(T).data());
    return static_cast<E>(v);
  }
}

template <OperandType T>
Status infer(const NodeIO& io) {
  if (auto v = pad_value<T>(io); !v) return std::move(v.error());
  return pad_common::infer(io);
}

template <OperandType T>
Status kernel(const NodeIO& io) {
  auto v = pad_value<T>(io);
  if (!v) return std::move(v.error());
  std::byte value[sizeof(element_t<T>)];
  std::memcpy(value, &*v, sizeof value);
  pad_common::run(io, value);
  return {};
}

/// PAD_V2's kernels, keyed by the input type.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT16, OperandType::TENSOR_FLOAT32,
                                    OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_ASYMM_SIGNED};
  static Status infer(const NodeIO& io) {
    switch (io.input(0).type) {
      case OperandType::TENSOR_QUANT8_ASYMM: return pad_v2::infer<OperandType::TENSOR_QUANT8_ASYMM>(io);
      case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: return pad_v2::infer<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>(io);
      default: return pad_common::infer(io);
    }
  }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &kernel<T>;
  }
};

}  // namespace nnhal::kernels::pad_v2

namespace nnhal {

template <>
struct Kernels<OperationType::PAD_V2> : kernels::pad_v2::Family {};
static_assert(kernels_cover_row<OperationType::PAD_V2>());

}  // namespace nnhal
