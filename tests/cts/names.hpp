#pragma once
/// \file
/// Name tables of the conformance corpus (shared/cts/SCHEMA.md): operand types, lifetimes and
/// operations as the JSON spells them. Kept free of JSON so the unit tests can check them.

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "nnhal/core/enums.hpp"

namespace nnhal::cts {

struct OperandTypeName {
  std::string_view name;
  OperandType type;
  std::string_view element;  ///< the `data.type` the corpus uses for this operand type
};

inline constexpr std::array<OperandTypeName, 16> kOperandTypeNames{{
    {"FLOAT32", OperandType::FLOAT32, "float"},
    {"INT32", OperandType::INT32, "int32_t"},
    {"UINT32", OperandType::UINT32, "uint32_t"},
    {"TENSOR_FLOAT32", OperandType::TENSOR_FLOAT32, "float"},
    {"TENSOR_INT32", OperandType::TENSOR_INT32, "int32_t"},
    {"TENSOR_QUANT8_ASYMM", OperandType::TENSOR_QUANT8_ASYMM, "uint8_t"},
    {"BOOL", OperandType::BOOL, "bool8"},
    {"TENSOR_QUANT16_SYMM", OperandType::TENSOR_QUANT16_SYMM, "int16_t"},
    {"TENSOR_FLOAT16", OperandType::TENSOR_FLOAT16, "_Float16"},
    {"TENSOR_BOOL8", OperandType::TENSOR_BOOL8, "bool8"},
    {"FLOAT16", OperandType::FLOAT16, "_Float16"},
    {"TENSOR_QUANT8_SYMM_PER_CHANNEL", OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL, "int8_t"},
    {"TENSOR_QUANT16_ASYMM", OperandType::TENSOR_QUANT16_ASYMM, "uint16_t"},
    {"TENSOR_QUANT8_SYMM", OperandType::TENSOR_QUANT8_SYMM, "int8_t"},
    {"TENSOR_QUANT8_ASYMM_SIGNED", OperandType::TENSOR_QUANT8_ASYMM_SIGNED, "int8_t"},
    {"SUBGRAPH", OperandType::SUBGRAPH, "uint32_t"},
}};

inline constexpr std::optional<OperandType> operand_type_from_name(std::string_view name) {
  for (const auto& e : kOperandTypeNames)
    if (e.name == name) return e.type;
  return std::nullopt;
}

/// The corpus `data.type` of an operand type ("" for types the corpus never uses).
inline constexpr std::string_view element_type_name(OperandType type) {
  for (const auto& e : kOperandTypeNames)
    if (e.type == type) return e.element;
  return "";
}

inline constexpr std::optional<OperandLifeTime> lifetime_from_name(std::string_view name) {
  constexpr std::array<OperandLifeTime, 7> all{
      OperandLifeTime::TEMPORARY_VARIABLE, OperandLifeTime::SUBGRAPH_INPUT,
      OperandLifeTime::SUBGRAPH_OUTPUT,    OperandLifeTime::CONSTANT_COPY,
      OperandLifeTime::CONSTANT_REFERENCE, OperandLifeTime::NO_VALUE,
      OperandLifeTime::SUBGRAPH};
  for (OperandLifeTime l : all)
    if (to_string(l) == name) return l;
  return std::nullopt;
}

/// Operation names indexed by code: HAL 1.3's 0..101 (nnhal's own names, from the one operation
/// list), then the post-1.3 operations 102..105 of the AIDL folders. Those keep their real codes so
/// that nnhal's validation, not the runner, decides what happens to them (a HAL 1.3 validator
/// rejects codes above 101).
inline constexpr std::array<std::string_view, 4> kPostHal13OperationNames{
    // Not HAL 1.3 (SCHEMA.md "Folders"): canonical feature levels 6 and 7.
    "BATCH_MATMUL", "PACK", "MIRROR_PAD", "REVERSE"};
inline constexpr std::array<std::string_view, kOperationTypeCount + kPostHal13OperationNames.size()>
    kOperationNames = [] {
      std::array<std::string_view, kOperationTypeCount + kPostHal13OperationNames.size()> names{};
      for (std::int32_t code = 0; code < kOperationTypeCount; ++code)
        names[static_cast<std::size_t>(code)] = to_string(static_cast<OperationType>(code));
      for (std::size_t i = 0; i < kPostHal13OperationNames.size(); ++i)
        names[kOperationTypeCount + i] = kPostHal13OperationNames[i];
      return names;
    }();

inline constexpr std::optional<OperationType> operation_from_name(std::string_view name) {
  for (std::size_t code = 0; code < kOperationNames.size(); ++code)
    if (kOperationNames[code] == name) return static_cast<OperationType>(code);
  return std::nullopt;
}

inline constexpr std::string_view operation_name(OperationType type) {
  const auto code = static_cast<std::int32_t>(type);
  if (code >= 0 && static_cast<std::size_t>(code) < kOperationNames.size())
    return kOperationNames[static_cast<std::size_t>(code)];
  return "UNKNOWN_OPERATION";
}

}  // namespace nnhal::cts
