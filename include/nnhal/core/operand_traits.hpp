#pragma once
/// \file
/// Compile-time facts about every operand type: the C++ element type, its byte size, whether
/// it is a tensor, whether it is quantized, and the HAL version that introduced it.

#include <array>
#include <cstdint>
#include <string_view>

#include "nnhal/core/enums.hpp"
#include "nnhal/core/half.hpp"

namespace nnhal {

/// Runtime description of one fundamental operand type.
struct OperandTypeInfo {
  OperandType type;
  std::string_view name;
  std::uint32_t element_size;  ///< bytes per element; 0 for SUBGRAPH
  bool is_tensor;
  bool is_quantized;
  HalVersion since;
};

namespace detail {
inline constexpr std::array<OperandTypeInfo, kOperandTypeCount> kOperandTypeInfos{{
    {OperandType::FLOAT32, "FLOAT32", 4, false, false, HalVersion::V1_0},
    {OperandType::INT32, "INT32", 4, false, false, HalVersion::V1_0},
    {OperandType::UINT32, "UINT32", 4, false, false, HalVersion::V1_0},
    {OperandType::TENSOR_FLOAT32, "TENSOR_FLOAT32", 4, true, false, HalVersion::V1_0},
    {OperandType::TENSOR_INT32, "TENSOR_INT32", 4, true, false, HalVersion::V1_0},
    {OperandType::TENSOR_QUANT8_ASYMM, "TENSOR_QUANT8_ASYMM", 1, true, true, HalVersion::V1_0},
    {OperandType::BOOL, "BOOL", 1, false, false, HalVersion::V1_2},
    {OperandType::TENSOR_QUANT16_SYMM, "TENSOR_QUANT16_SYMM", 2, true, true, HalVersion::V1_2},
    {OperandType::TENSOR_FLOAT16, "TENSOR_FLOAT16", 2, true, false, HalVersion::V1_2},
    {OperandType::TENSOR_BOOL8, "TENSOR_BOOL8", 1, true, false, HalVersion::V1_2},
    {OperandType::FLOAT16, "FLOAT16", 2, false, false, HalVersion::V1_2},
    {OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL, "TENSOR_QUANT8_SYMM_PER_CHANNEL", 1, true, true,
     HalVersion::V1_2},
    {OperandType::TENSOR_QUANT16_ASYMM, "TENSOR_QUANT16_ASYMM", 2, true, true, HalVersion::V1_2},
    {OperandType::TENSOR_QUANT8_SYMM, "TENSOR_QUANT8_SYMM", 1, true, true, HalVersion::V1_2},
    {OperandType::TENSOR_QUANT8_ASYMM_SIGNED, "TENSOR_QUANT8_ASYMM_SIGNED", 1, true, true,
     HalVersion::V1_3},
    {OperandType::SUBGRAPH, "SUBGRAPH", 0, false, false, HalVersion::V1_3},
}};
}  // namespace detail

/// True for the fundamental operand types 0..15 (OEM and extension types are not).
constexpr bool is_fundamental(OperandType t) noexcept {
  const auto v = static_cast<std::int32_t>(t);
  return v >= 0 && v < kOperandTypeCount;
}

/// Facts about a fundamental type. Precondition: is_fundamental(t).
constexpr const OperandTypeInfo& info(OperandType t) noexcept {
  return detail::kOperandTypeInfos[static_cast<std::size_t>(t)];
}

/// Printable name of an operand type; OEM and extension types get generic names.
constexpr std::string_view to_string(OperandType t) noexcept {
  if (is_fundamental(t)) return info(t).name;
  if (t == OperandType::OEM) return "OEM";
  if (t == OperandType::TENSOR_OEM_BYTE) return "TENSOR_OEM_BYTE";
  return "UNKNOWN_OPERAND_TYPE";
}

/// Bytes per element of a fundamental type (0 for SUBGRAPH and non-fundamental types).
constexpr std::uint32_t element_size(OperandType t) noexcept {
  return is_fundamental(t) ? info(t).element_size : 0;
}

/// True for tensor types.
constexpr bool is_tensor(OperandType t) noexcept {
  return is_fundamental(t) ? info(t).is_tensor : t == OperandType::TENSOR_OEM_BYTE;
}

/// True for scalar types (including SUBGRAPH and OEM).
constexpr bool is_scalar(OperandType t) noexcept { return !is_tensor(t); }

/// True for quantized tensor types.
constexpr bool is_quantized(OperandType t) noexcept {
  return is_fundamental(t) && info(t).is_quantized;
}

/// Compile-time traits of one operand type: `element_type` is the C++ type of one stored
/// element. Reading an operand through any other C++ type is a compile error in nnhal's typed
/// views (see nnhal/tensor/tensor_view.hpp).
template <OperandType T>
struct operand_type_traits;

#define NNHAL_DEFINE_OPERAND_TRAITS(TYPE, CTYPE)                          \
  template <>                                                             \
  struct operand_type_traits<OperandType::TYPE> {                         \
    using element_type = CTYPE;                                           \
    static constexpr OperandType type = OperandType::TYPE;                \
    static constexpr const OperandTypeInfo& info = ::nnhal::info(type);   \
    static constexpr bool is_tensor = info.is_tensor;                     \
    static constexpr bool is_quantized = info.is_quantized;               \
    static constexpr HalVersion since = info.since;                       \
  };

NNHAL_DEFINE_OPERAND_TRAITS(FLOAT32, float)
NNHAL_DEFINE_OPERAND_TRAITS(INT32, std::int32_t)
NNHAL_DEFINE_OPERAND_TRAITS(UINT32, std::uint32_t)
NNHAL_DEFINE_OPERAND_TRAITS(TENSOR_FLOAT32, float)
NNHAL_DEFINE_OPERAND_TRAITS(TENSOR_INT32, std::int32_t)
NNHAL_DEFINE_OPERAND_TRAITS(TENSOR_QUANT8_ASYMM, std::uint8_t)
NNHAL_DEFINE_OPERAND_TRAITS(BOOL, std::uint8_t)
NNHAL_DEFINE_OPERAND_TRAITS(TENSOR_QUANT16_SYMM, std::int16_t)
NNHAL_DEFINE_OPERAND_TRAITS(TENSOR_FLOAT16, Half)
NNHAL_DEFINE_OPERAND_TRAITS(TENSOR_BOOL8, std::uint8_t)
NNHAL_DEFINE_OPERAND_TRAITS(FLOAT16, Half)
NNHAL_DEFINE_OPERAND_TRAITS(TENSOR_QUANT8_SYMM_PER_CHANNEL, std::int8_t)
NNHAL_DEFINE_OPERAND_TRAITS(TENSOR_QUANT16_ASYMM, std::uint16_t)
NNHAL_DEFINE_OPERAND_TRAITS(TENSOR_QUANT8_SYMM, std::int8_t)
NNHAL_DEFINE_OPERAND_TRAITS(TENSOR_QUANT8_ASYMM_SIGNED, std::int8_t)
NNHAL_DEFINE_OPERAND_TRAITS(SUBGRAPH, std::uint32_t)

#undef NNHAL_DEFINE_OPERAND_TRAITS

/// The C++ element type of operand type T.
template <OperandType T>
using element_t = typename operand_type_traits<T>::element_type;

}  // namespace nnhal
