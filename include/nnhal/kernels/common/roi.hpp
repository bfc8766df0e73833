#pragma once
/// \file
/// Helpers shared by the region operations (ROI_ALIGN, ROI_POOLING, BOX_WITH_NMS_LIMIT,
/// AXIS_ALIGNED_BBOX_TRANSFORM): element <-> float conversions of their data and box operands,
/// and the box-type facts of their signatures.
///
/// Boxes are [x1, y1, x2, y2]. They are of the data type for FLOAT32 / FLOAT16 and
/// TENSOR_QUANT16_ASYMM (scale 0.125, zero point 0) for the 8-bit data types.

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "nnhal/core/half.hpp"
#include "nnhal/interface/node_io.hpp"

namespace nnhal::kernels::roi {

/// The box operand type used with data type T.
template <OperandType T>
inline constexpr OperandType kBoxType =
    (T == OperandType::TENSOR_QUANT8_ASYMM || T == OperandType::TENSOR_QUANT8_ASYMM_SIGNED)
        ? OperandType::TENSOR_QUANT16_ASYMM
        : T;

/// True for the 8-bit data types.
template <OperandType T>
inline constexpr bool kQuantized = kBoxType<T> == OperandType::TENSOR_QUANT16_ASYMM;

/// The float scalar type of data type T's parameters (FLOAT16 for FLOAT16, else FLOAT32).
template <OperandType T>
inline constexpr OperandType kFloatScalar =
    T == OperandType::TENSOR_FLOAT16 ? OperandType::FLOAT16 : OperandType::FLOAT32;

/// Value of float scalar input i (FLOAT16 widened to float).
template <OperandType T>
inline float float_scalar(const NodeIO& io, std::size_t i) noexcept {
  if constexpr (T == OperandType::TENSOR_FLOAT16)
    return static_cast<float>(io.scalar<OperandType::FLOAT16>(i));
  else
    return io.scalar<OperandType::FLOAT32>(i);
}

/// An element of a float or quantized operand (scale, zero point) as float.
template <class E>
inline float to_float(E v, float scale, std::int32_t zero_point) noexcept {
  if constexpr (std::is_same_v<E, float>)
    return v;
  else if constexpr (std::is_same_v<E, Half>)
    return static_cast<float>(v);
  else
    return static_cast<float>(static_cast<std::int32_t>(v) - zero_point) * scale;
}

/// A float stored as E: float / Half directly, an integer type as round(v / scale + zero_point)
/// clamped to its range (the reference's conversion of results to quantized storage).
template <class E>
inline E from_float(float v, float scale, std::int32_t zero_point) noexcept {
  if constexpr (std::is_same_v<E, float>) {
    return v;
  } else if constexpr (std::is_same_v<E, Half>) {
    return Half(v);
  } else {
    const float r = std::round(v / scale + static_cast<float>(zero_point));
    constexpr float lo = std::numeric_limits<E>::lowest(), hi = std::numeric_limits<E>::max();
    if (!(r >= lo)) return static_cast<E>(lo);  // also NaN
    if (r > hi) return static_cast<E>(hi);
    return static_cast<E>(r);
  }
}

/// Checks that box input `i` of an 8-bit node has the fixed quantization (scale 0.125, zero
/// point 0) the reference requires. `op` names the operation.
inline Status check_box_quant(const RtOperand& box, const char* op, const char* what) {
  if (box.type != OperandType::TENSOR_QUANT16_ASYMM) return {};
  if (box.scale != 0.125f || box.zero_point != 0)
    return NNHAL_INVALID("%s %s must have scale 0.125 and zero point 0 (has %g, %d)", op, what,
                         static_cast<double>(box.scale), box.zero_point);
  return {};
}

}  // namespace nnhal::kernels::roi
