#pragma once
/// \file
/// The definition of KernelResolver<Set>::table(): the table of a kernel set, built at compile
/// time from the kernels of its entries. Include it after the kernels the set names (or use
/// <nnhal/kernels/all.hpp>, which includes it with every kernel).

#include <cstddef>

#include "nnhal/interface/kernel_set.hpp"
#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

namespace detail {
template <class... E>
constexpr KernelTable build_kernel_table(KernelSet<E...>*) noexcept {
  static_assert(((static_cast<std::size_t>(E::op) < static_cast<std::size_t>(kOperationTypeCount)) && ...),
                "nnhal: a kernel set names an operation code outside 0..101");
  KernelTable table{};
  ((table.kernels[static_cast<std::size_t>(E::op)] = entry_kernel<E>()), ...);
  return table;
}

template <class... E>
constexpr bool kernel_set_unique(KernelSet<E...>*) noexcept {
  std::array<bool, static_cast<std::size_t>(kOperationTypeCount)> named{};
  bool unique = true;
  ((unique = unique && !named[static_cast<std::size_t>(E::op)], named[static_cast<std::size_t>(E::op)] = true),
   ...);
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
