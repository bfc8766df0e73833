#pragma once
/// \file
/// One conformance test as read from the corpus, before it becomes an nnhal::Model and Request:
/// operands with their values already encoded in their element type. The JSON reader
/// (json_model.cpp) fills it; everything downstream (model_builder.hpp, compare.hpp) works on
/// it without JSON, so the unit tests can build cases by hand.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "nnhal/core/half.hpp"
#include "nnhal/core/operand_traits.hpp"
#include "nnhal/model/model.hpp"

namespace nnhal::cts {

struct TestOperand {
  /// Type, dimensions, numberOfConsumers, scale, zeroPoint, lifetime and channelQuant as the
  /// corpus gives them; `location` is filled in by the model builder.
  Operand operand;
  /// `data.values` in the operand's element type (little-endian, as in memory). Empty: no data
  /// (temporaries, omitted inputs, zero-sized outputs, NO_VALUE).
  std::vector<std::byte> data;
  bool ignored = false;  ///< main-graph outputs only: not compared
};

struct TestSubgraph {
  std::vector<TestOperand> operands;
  Vector<Operation> operations;
  Vector<std::uint32_t> inputIndexes;
  Vector<std::uint32_t> outputIndexes;
};

struct TestModel {
  std::string name;
  TestSubgraph main;
  std::vector<TestSubgraph> referenced;
  bool relaxed = false;
  bool expectFailure = false;
  /// The corpus' minSupportedVersion ("V1_0" ... "AIDL_V3", "UNKNOWN"; empty if absent).
  std::string minSupportedVersion;
  double multinomialTolerance = 0.0;
  /// Non-empty when the corpus entry could not be converted; the model then fails with it.
  std::string conversionError;
};

/// Number of elements of a shape: the product of `dims`, 1 for a scalar ([]).
inline std::size_t element_count(std::span<const std::uint32_t> dims) {
  std::size_t n = 1;
  for (std::uint32_t d : dims) n *= d;
  return n;
}

namespace detail {
template <class T>
void append_raw(std::vector<std::byte>& out, T v) {
  const std::size_t at = out.size();
  out.resize(at + sizeof v);
  std::memcpy(out.data() + at, &v, sizeof v);
}

template <class T>
bool append_integer(std::vector<std::byte>& out, double v) {
  if (!(v >= static_cast<double>(std::numeric_limits<T>::min()) &&
        v <= static_cast<double>(std::numeric_limits<T>::max()) && v == std::floor(v)))
    return false;
  append_raw(out, static_cast<T>(v));
  return true;
}
}  // namespace detail

/// Appends one corpus value of an operand of `type` in its in-memory form. `value` is the JSON
/// number (booleans as 0/1). Floats narrow to float32 exactly (SCHEMA.md "Floating-point
/// numbers": every value is exactly representable), and _Float16 data then goes through
/// nnhal::Half, which is lossless for them. Returns false when the value does not fit the
/// element type (out of range, or a fraction in integer data).
inline bool append_element(OperandType type, double value, std::vector<std::byte>& out) {
  switch (type) {
    case OperandType::FLOAT32:
    case OperandType::TENSOR_FLOAT32:
      detail::append_raw(out, static_cast<float>(value));
      return true;
    case OperandType::FLOAT16:
    case OperandType::TENSOR_FLOAT16:
      detail::append_raw(out, Half(static_cast<float>(value)).bits);
      return true;
    case OperandType::INT32:
    case OperandType::TENSOR_INT32:
      return detail::append_integer<std::int32_t>(out, value);
    case OperandType::UINT32:
    case OperandType::SUBGRAPH:
      return detail::append_integer<std::uint32_t>(out, value);
    case OperandType::TENSOR_QUANT8_ASYMM:
      return detail::append_integer<std::uint8_t>(out, value);
    case OperandType::TENSOR_QUANT8_SYMM:
    case OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL:
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      return detail::append_integer<std::int8_t>(out, value);
    case OperandType::TENSOR_QUANT16_SYMM:
      return detail::append_integer<std::int16_t>(out, value);
    case OperandType::TENSOR_QUANT16_ASYMM:
      return detail::append_integer<std::uint16_t>(out, value);
    case OperandType::BOOL:
    case OperandType::TENSOR_BOOL8:
      if (value != 0.0 && value != 1.0) return false;
      detail::append_raw(out, static_cast<std::uint8_t>(value));
      return true;
    case OperandType::OEM:
    case OperandType::TENSOR_OEM_BYTE:
      return false;
  }
  return false;
}

/// Element `index` of a buffer of `type`, widened to double (quantized types as their raw
/// stored integers; booleans as 0/1, any non-zero byte being true, which is how the Android
/// harness reads them: it casts each bool8 byte to bool before comparing).
inline double read_element(OperandType type, const std::byte* data, std::size_t index) {
  auto load = [&](auto zero) {
    decltype(zero) v;
    std::memcpy(&v, data + index * sizeof v, sizeof v);
    return v;
  };
  switch (type) {
    case OperandType::FLOAT32:
    case OperandType::TENSOR_FLOAT32:
      return static_cast<double>(load(0.0f));
    case OperandType::FLOAT16:
    case OperandType::TENSOR_FLOAT16:
      return static_cast<double>(Half::to_float(load(std::uint16_t{0})));
    case OperandType::INT32:
    case OperandType::TENSOR_INT32:
      return static_cast<double>(load(std::int32_t{0}));
    case OperandType::UINT32:
    case OperandType::SUBGRAPH:
      return static_cast<double>(load(std::uint32_t{0}));
    case OperandType::TENSOR_QUANT8_ASYMM:
      return static_cast<double>(load(std::uint8_t{0}));
    case OperandType::TENSOR_QUANT8_SYMM:
    case OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL:
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      return static_cast<double>(load(std::int8_t{0}));
    case OperandType::TENSOR_QUANT16_SYMM:
      return static_cast<double>(load(std::int16_t{0}));
    case OperandType::TENSOR_QUANT16_ASYMM:
      return static_cast<double>(load(std::uint16_t{0}));
    case OperandType::BOOL:
    case OperandType::TENSOR_BOOL8:
      return load(std::uint8_t{0}) != 0 ? 1.0 : 0.0;
    case OperandType::OEM:
    case OperandType::TENSOR_OEM_BYTE:
      break;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace nnhal::cts
