#pragma once
/// \file
/// Vendor extensions (HAL13.md a.1, a.5, b.7, b.13): operand and operation types with codes
/// above 0xFFFF, whose high 16 bits are a prefix that the model maps to an extension name
/// (`Model::extensionNameToPrefix`) and whose low 16 bits are the type within that extension.
///
/// A driver defines an extension at compile time, with operations written as built-in ones are:
/// a row (`static constexpr OperationInfo info = make_extension_row("NAME", {...})`) and a kernel
/// family (nnhal/kernels/kernel.hpp), and names it in its kernel set:
///
///     struct Gelu { static constexpr OperationInfo info = make_extension_row("GELU", {...}); };
///     struct GeluKernels : KernelFamily { types, infer, select<T> };
///     struct FusedGelu {
///       static constexpr std::string_view name = "com.example.fused_gelu";
///       static constexpr std::array<Extension::OperandTypeInformation, 0> operand_types{};
///       using operations = ExtensionOperations<ExtensionOp<0, Gelu, GeluKernels>>;
///     };
///     using Set = KernelSet<Use<OperationType::ADD>, UseExtension<FusedGelu>>;
///
/// In an extension row's signatures, `extension_operand(n)` stands for the extension's own
/// operand type n (whatever prefix a model gives the extension); a kernel family may list it in
/// its `types` to key on it. Operands of an extension's types are sized by its registration
/// (byteSize per element, isTensor) in the arena and in request checks; kernels reach their
/// data as bytes (NodeIO::input(i).data). IF and WHILE do not take them. Validation reaches the
/// registered extensions through ValidationOptions::extensions (preparation, the support query
/// and the Device fill it from their kernel set); without them, extension codes are rejected.
/// This header is light: descriptors and lookups, no kernels.

#include <cstdint>
#include <span>
#include <string_view>

#include "nnhal/core/result.hpp"
#include "nnhal/interface/operation_info.hpp"
#include "nnhal/model/model.hpp"

namespace nnhal {

struct OpKernel;

/// Bits of an extension type code (HAL13.md a.6): prefix in the high 16, type in the low 16.
inline constexpr std::uint32_t kExtensionTypeBits = 16;
inline constexpr std::uint32_t kTypeWithinExtensionMask = 0xFFFF;
/// Largest prefix: a type code's sign bit stays 0.
inline constexpr std::uint32_t kMaxExtensionPrefix = 0x7FFF;

/// True for a type code of an extension (above 0xFFFF, HAL13.md a.1 BASE_MAX).
constexpr bool is_extension_code(std::int32_t code) noexcept { return code > 0xFFFF; }
constexpr bool is_extension(OperandType t) noexcept { return is_extension_code(static_cast<std::int32_t>(t)); }
constexpr bool is_extension(OperationType t) noexcept { return is_extension_code(static_cast<std::int32_t>(t)); }

/// The prefix (high 16 bits) and the type within the extension (low 16 bits) of a code.
constexpr std::uint16_t extension_prefix(std::int32_t code) noexcept {
  return static_cast<std::uint16_t>(static_cast<std::uint32_t>(code) >> kExtensionTypeBits);
}
constexpr std::uint16_t type_within_extension(std::int32_t code) noexcept {
  return static_cast<std::uint16_t>(static_cast<std::uint32_t>(code) & kTypeWithinExtensionMask);
}
/// The code of type `type` of the extension a model maps to `prefix`.
constexpr std::int32_t extension_code(std::uint16_t prefix, std::uint16_t type) noexcept {
  return static_cast<std::int32_t>((std::uint32_t{prefix} << kExtensionTypeBits) | type);
}

/// Signature codes kExtensionLocalBase + n (below kAnyTypeCode) stand, in an extension's rows,
/// for the extension's own operand type n.
inline constexpr std::uint8_t kExtensionLocalBase = 0x80;
inline constexpr std::uint16_t kMaxLocalExtensionType = kAnyTypeCode - kExtensionLocalBase - 1;

/// In an extension operation's signatures: the extension's operand type `type` (<= 126).
constexpr OperandType extension_operand(std::uint16_t type) noexcept {
  return static_cast<OperandType>(kExtensionLocalBase + type);
}

/// True when signature code `c` names an extension's own operand type.
constexpr bool is_local_extension_code(std::uint8_t c) noexcept {
  return c >= kExtensionLocalBase && c != kAnyTypeCode;
}

/// The row of an extension operation: as make_row, with the name given (the code depends on
/// the prefix a model chooses, so the row holds none).
constexpr OperationInfo make_extension_row(std::string_view name, const RowSpec& spec) {
  OperationInfo info = make_row(OperationType::OEM_OPERATION, spec);
  info.name = name;
  info.since = max_version(info.since, HalVersion::V1_2);
  return info;
}

/// One operation of a registered extension: its type within the extension, its row and its
/// kernels (nullptr: validated but not run).
struct ExtensionOperation {
  std::uint16_t type = 0;
  const OperationInfo* row = nullptr;
  const OpKernel* kernel = nullptr;
};

/// A registered extension, as validation, preparation and the device read it.
struct ExtensionInfo {
  std::string_view name;
  std::span<const Extension::OperandTypeInformation> operand_types;
  std::span<const ExtensionOperation> operations;

  /// Operand type `type` of this extension, or nullptr.
  constexpr const Extension::OperandTypeInformation* operand_type(std::uint16_t type) const noexcept {
    for (const auto& t : operand_types)
      if (t.type == type) return &t;
    return nullptr;
  }
  /// Operation `type` of this extension, or nullptr.
  constexpr const ExtensionOperation* operation(std::uint16_t type) const noexcept {
    for (const auto& o : operations)
      if (o.type == type) return &o;
    return nullptr;
  }
};

/// The extensions a program registered (through its kernel set).
using ExtensionList = std::span<const ExtensionInfo* const>;

/// A valid extension name (HAL13.md b.7): lowercase letters, digits, '.' and '_', at least one '.'.
constexpr bool is_valid_extension_name(std::string_view name) noexcept {
  bool dot = false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_';
    if (!ok) return false;
    dot = dot || c == '.';
  }
  return dot;
}

/// The registered extension named `name`, or nullptr.
constexpr const ExtensionInfo* find_extension(ExtensionList extensions, std::string_view name) noexcept {
  for (const ExtensionInfo* e : extensions)
    if (e != nullptr && e->name == name) return e;
  return nullptr;
}

/// The registered extension that the prefix of extension code `code` names in `model`, or
/// INVALID_ARGUMENT saying why there is none ("what" names the code: "operation", "operand type").
inline Expected<const ExtensionInfo*> resolve_extension(const Model& model, ExtensionList extensions,
                                                        std::int32_t code, const char* what) {
  const std::uint16_t prefix = extension_prefix(code);
  for (const ExtensionNameAndPrefix& e : model.extensionNameToPrefix) {
    if (e.prefix != prefix) continue;
    if (const ExtensionInfo* found = find_extension(extensions, e.name)) return found;
    return NNHAL_INVALID("extension %s 0x%x (prefix %u, %s) has no registered extension", what,
                         static_cast<unsigned>(code), prefix, e.name.c_str());
  }
  return NNHAL_INVALID("extension %s 0x%x (prefix %u) has no registered extension: the prefix is not in "
                       "the model's extensionNameToPrefix",
                       what, static_cast<unsigned>(code), prefix);
}

/// The registered operation of extension operation code `type` in `model`, or INVALID_ARGUMENT.
inline Expected<const ExtensionOperation*> resolve_extension_operation(const Model& model, ExtensionList extensions,
                                                                       OperationType type) {
  const auto code = static_cast<std::int32_t>(type);
  auto ext = resolve_extension(model, extensions, code, "operation");
  if (!ext) return std::move(ext.error());
  if (const ExtensionOperation* op = (*ext)->operation(type_within_extension(code))) return op;
  return NNHAL_INVALID("extension operation 0x%x: extension %.*s defines no operation %u",
                       static_cast<unsigned>(code), static_cast<int>((*ext)->name.size()), (*ext)->name.data(),
                       type_within_extension(code));
}

/// The registered description of extension operand type `type` in `model`, or nullptr (not an
/// extension type, or none registered: validation rejects those).
inline const Extension::OperandTypeInformation* find_extension_operand_type(const Model& model,
                                                                            ExtensionList extensions,
                                                                            OperandType type) {
  if (!is_extension(type)) return nullptr;
  const auto code = static_cast<std::int32_t>(type);
  for (const ExtensionNameAndPrefix& e : model.extensionNameToPrefix)
    if (e.prefix == extension_prefix(code)) {
      const ExtensionInfo* found = find_extension(extensions, e.name);
      return found != nullptr ? found->operand_type(type_within_extension(code)) : nullptr;
    }
  return nullptr;
}

/// Registration vocabulary. Operation `Type` of an extension: its row (a class with
/// `static constexpr OperationInfo info`) and its kernels (a kernel family, or NoKernelsYet).
template <std::uint16_t Type, class RowT, class KernelsT>
struct ExtensionOp {
  static constexpr std::uint16_t type = Type;
  using row = RowT;
  using kernels = KernelsT;
};

/// The operations of an extension (its `operations` member type).
template <class... Ops>
struct ExtensionOperations {};

}  // namespace nnhal
