#pragma once
/// \file
/// The definition of KernelResolver<Set>::table(): the table of a kernel set, built at compile
/// time from the kernels of its entries. Include it after the kernels the set names (or use
/// <nnhal/kernels/all.hpp>, which includes it with every kernel).

#include <cstddef>

#include "nnhal/interface/kernel_set.hpp"
#include "nnhal/kernels/extension.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/registry.hpp"

namespace nnhal {

namespace detail {
/// Index of an operation entry's code; past the table for UseExtension entries.
template <class E>
constexpr std::size_t entry_index() noexcept {
  if constexpr (kIsExtensionEntry<E> || kIsRowsEntry<E>) return static_cast<std::size_t>(kOperationTypeCount);
  else return static_cast<std::size_t>(E::op);
}

/// True for the entries that name an operation's kernels.
template <class E>
inline constexpr bool kIsOperationEntry = !kIsExtensionEntry<E> && !kIsRowsEntry<E>;

template <class E>
constexpr void add_entry(KernelTable& table) noexcept {
  if constexpr (kIsOperationEntry<E>) {
    static_assert(static_cast<std::size_t>(E::op) < static_cast<std::size_t>(kOperationTypeCount),
                  "nnhal: a kernel set names an operation code outside 0..101");
    table.kernels[static_cast<std::size_t>(E::op)] = entry_kernel<E>();
  }
}

/// The descriptors of the UseExtension entries among E, in order.
template <class... E>
inline constexpr auto kSetExtensions = [] {
  std::array<const ExtensionInfo*, (std::size_t{kIsExtensionEntry<E>} + ... + 0)> out{};
  std::size_t at = 0;
  auto add = [&]<class Entry>(Entry*) {
    if constexpr (kIsExtensionEntry<Entry>) out[at++] = &kExtensionInfo<typename Entry::extension>;
  };
  (add(static_cast<E*>(nullptr)), ...);
  return out;
}();

template <std::size_t N>
constexpr bool extension_names_unique(const std::array<const ExtensionInfo*, N>& list) noexcept {
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (list[i]->name == list[j]->name) return false;
  return true;
}

/// The rows of the operations among E (a set with SetRowsOnly validates with these).
template <class... E>
inline constexpr OperationRows kSetRows = [] {
  OperationRows rows{};
  auto add = [&]<class Entry>(Entry*) {
    if constexpr (kIsOperationEntry<Entry>) rows.rows[static_cast<std::size_t>(Entry::op)] = &Row<Entry::op>::info;
  };
  (add(static_cast<E*>(nullptr)), ...);
  return rows;
}();

template <class... E>
constexpr KernelTable build_kernel_table(KernelSet<E...>*) noexcept {
  KernelTable table{};
  (add_entry<E>(table), ...);
  if constexpr ((kIsRowsEntry<E> || ...)) table.rows = &kSetRows<E...>;
  else table.rows = &all_operation_rows();
  if constexpr ((kIsExtensionEntry<E> || ...)) {
    static_assert(extension_names_unique(kSetExtensions<E...>),
                  "nnhal: a kernel set names an extension more than once");
    table.extensions = kSetExtensions<E...>;
  }
  return table;
}

template <class... E>
constexpr bool kernel_set_unique(KernelSet<E...>*) noexcept {
  std::array<bool, static_cast<std::size_t>(kOperationTypeCount) + 1> named{};
  bool unique = true;
  ((unique = unique && (!kIsOperationEntry<E> || !named[entry_index<E>()]), named[entry_index<E>()] = true), ...);
  return unique;
}
}  // namespace detail

/// The table of kernel set `Set`, as a constant (what KernelResolver<Set>::table() returns).
template <class Set>
inline constexpr KernelTable kKernelTable = [] {
  static_assert(detail::kernel_set_unique(static_cast<Set*>(nullptr)),
                "nnhal: a kernel set names an operation more than once");
  return detail::build_kernel_table(static_cast<Set*>(nullptr));
}();

template <class Set>
const KernelTable& KernelResolver<Set>::table() noexcept {
  return kKernelTable<Set>;
}

}  // namespace nnhal
