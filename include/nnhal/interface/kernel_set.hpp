#pragma once
/// \file
/// Kernel sets: which operations (and, optionally, which operand types) a program can run,
/// named at compile time, like TFLite Micro's op resolver but resolved by the compiler. Only the
/// kernels of the named set are compiled into the program.
///
///     using MySet = nnhal::KernelSet<nnhal::Use<nnhal::OperationType::ADD>,
///                                    nnhal::Use<nnhal::OperationType::FULLY_CONNECTED,
///                                               nnhal::OperandType::TENSOR_FLOAT32>>;
///     auto prepared = nnhal::PreparedModel::prepare<MySet>(model);
///
/// with the kernels the set names included (nnhal/kernels/add.hpp, .../fully_connected.hpp) and
/// then nnhal/kernels/resolve.hpp.
///
/// The default set, AllKernels, is every kernel nnhal has (<nnhal/kernels/all.hpp>). A program
/// of several files compiles a set's kernels once: every file but one says
/// NNHAL_EXTERN_KERNEL_SET(Set); and needs only the light headers, one file includes the kernels
/// and says NNHAL_INSTANTIATE_KERNEL_SET(Set); (both macros: nnhal/exec/prepared_model.hpp).
///
/// This header is light: it names kernels but includes none. Preparation, the supported-
/// operations query and the device read a set through its KernelTable.

#include <array>
#include <cstdint>
#include <span>
#include <type_traits>

#include "nnhal/core/enums.hpp"
#include "nnhal/interface/node_io.hpp"

namespace nnhal {

/// The kernels of operation Op: specialized by nnhal/kernels/<name>.hpp.
template <OperationType Op>
struct Kernels;

/// A kernel set entry: operation Op run by the kernels K, restricted to the listed operand types
/// of its key input (the input whose type picks the kernel, input 0 for most operations) when
/// any are listed; otherwise every type K has a kernel for.
template <OperationType Op, class K, OperandType... Types>
struct UseKernels {
  static constexpr OperationType op = Op;
  using kernels = K;
  static constexpr std::array<OperandType, sizeof...(Types)> types{Types...};
};

/// A kernel set entry with nnhal's own kernels of Op.
template <OperationType Op, OperandType... Types>
using Use = UseKernels<Op, Kernels<Op>, Types...>;

/// A kernel set entry naming a vendor extension X (nnhal/interface/extension.hpp): its operand
/// types, operations and their kernels. Resolving a set with one needs
/// <nnhal/kernels/extension.hpp> (included by <nnhal/kernels/resolve.hpp>).
template <class X>
struct UseExtension {
  using extension = X;
};

/// True for UseExtension entries.
template <class E>
inline constexpr bool kIsExtensionEntry = false;
template <class X>
inline constexpr bool kIsExtensionEntry<UseExtension<X>> = true;

/// A kernel set entry that names no kernel: preparation with the set validates a model against
/// the rows (slots, signatures, rules) of the set's own operations only, so a program links no
/// other operation's row: about 100 KB less on a microcontroller (docs/embedded.md). A model
/// with an operation outside the set is refused by validation with GENERAL_FAILURE ("not in
/// this program's kernel set"), as preparation refuses it without this entry, but is not
/// checked against that operation's row first. The supported-operations query and the Device
/// validate with the same rows (the query reports such an operation unsupported; the Device's
/// prepare refuses it with GENERAL_FAILURE, and its cache fingerprint is that of these rows);
/// validate_model and validate_request still read every row.
struct SetRowsOnly {};

/// True for the SetRowsOnly entry.
template <class E>
inline constexpr bool kIsRowsEntry = std::is_same_v<E, SetRowsOnly>;

/// A compile-time set of kernels: UseKernels / Use entries, at most one per operation,
/// UseExtension entries, at most one per extension name, and optionally SetRowsOnly.
template <class... Entries>
struct KernelSet {};

struct ExtensionInfo;
struct OperationRows;

/// Shorthand: the full kernels of the listed operations.
template <OperationType... Ops>
using OpSet = KernelSet<Use<Ops>...>;

/// Every operation's kernels: the default set. Operations nnhal has no kernel for yet are part
/// of it and report unsupported.
namespace detail {
template <class... E>
KernelSet<E...> drop_leading_void(KernelSet<void, E...>*);
}  // namespace detail
#define NNHAL_KERNEL_SET_USE(name, code) , Use<OperationType::name>
using AllKernels = decltype(detail::drop_leading_void(
    static_cast<KernelSet<void NNHAL_OPERATION_TYPES(NNHAL_KERNEL_SET_USE)>*>(nullptr)));
#undef NNHAL_KERNEL_SET_USE

/// What preparation reads of a kernel set: the kernels of each operation code, nullptr for an
/// operation outside the set (or without kernels yet).
struct KernelTable {
  std::array<const OpKernel*, static_cast<std::size_t>(kOperationTypeCount)> kernels{};
  /// The extensions the set registers (UseExtension entries); empty for most sets.
  std::span<const ExtensionInfo* const> extensions{};
  /// The rows preparation validates with: every row, or the set's own with SetRowsOnly.
  /// Never null in a resolved table.
  const OperationRows* rows = nullptr;

  /// The kernels of `type`, or nullptr.
  constexpr const OpKernel* find(OperationType type) const noexcept {
    const auto code = static_cast<std::int32_t>(type);
    if (code < 0 || code >= kOperationTypeCount) return nullptr;
    return kernels[static_cast<std::size_t>(code)];
  }
  /// True when the set has kernels for `type`.
  constexpr bool contains(OperationType type) const noexcept { return find(type) != nullptr; }
};

/// Resolves a kernel set to its table. Only declared here: the definition is in
/// <nnhal/kernels/resolve.hpp>, which needs the kernels of the set.
template <class Set>
struct KernelResolver {
  static const KernelTable& table() noexcept;
};

/// The table of kernel set `Set`.
template <class Set>
const KernelTable& kernel_table() noexcept {
  return KernelResolver<Set>::table();
}

}  // namespace nnhal
