#pragma once
/// \file
/// The shape of an operation's kernels, and the generic prepare-time choice among them.
///
/// `Kernels<Op>` (one header per operation, nnhal/kernels/<name>.hpp) is one of:
///  - a kernel family: derives from KernelFamily and has
///      static constexpr std::array<OperandType, N> types;   // key-input types it has kernels for
///      static Status infer(const NodeIO&);                    // output shapes
///      template <OperandType T>
///      static Expected<KernelFn> select(const NodeIO&, KernelPrepare&);  // kernel for key type T
///    and optionally `key_input` (default 0) and `no_kernel`: key types a signature of the row
///    accepts for which no kernel exists, each with a reason in a comment. `check_covers_row<Op>()`
///    proves at compile time that every signature's key type is in `types` or `no_kernel`.
///  - NoKernelsYet: the operation is validated but not run; reported unsupported.
///  - ControlFlowKernels: IF and WHILE, run by the executor over their subgraphs.

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "nnhal/interface/kernel_set.hpp"
#include "nnhal/interface/node_io.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal {

/// Base of a kernel family: the defaults of its optional members.
struct KernelFamily {
  static constexpr std::size_t key_input = 0;
  static constexpr std::array<OperandType, 0> no_kernel{};
};

/// The kernels of an operation nnhal validates but cannot run yet.
struct NoKernelsYet {};

/// IF and WHILE: no kernel of their own; the executor runs their subgraphs.
struct ControlFlowKernels {};

namespace detail {

/// Picks, once at prepare time, the kernel of family K for the type of its key input among
/// the types Ts of a kernel set.
template <class K, OperandType... Ts>
Expected<KernelFn> select_by_type(const NodeIO& io, KernelPrepare& prepare) {
  const OperandType t = io.input(K::key_input).type;
  Expected<KernelFn> chosen = NNHAL_FAILURE("no kernel for %s in this kernel set", to_string(t).data());
  (void)((t == Ts && (chosen = K::template select<Ts>(io, prepare), true)) || ...);
  return chosen;
}

template <class K, OperandType... Ts>
inline constexpr OpKernel kFamilyKernel{&K::infer, &select_by_type<K, Ts...>};

inline constexpr OpKernel kControlFlowKernel{nullptr, nullptr, true};

/// The kernels of family K for the operand types listed in `Types` (a constexpr array).
template <class K, const auto& Types, std::size_t... I>
constexpr const OpKernel* kernel_for(std::index_sequence<I...>) noexcept {
  return &kFamilyKernel<K, Types[I]...>;
}

template <class T>
concept Complete = requires { sizeof(T); };

template <std::size_t N>
constexpr bool contains(const std::array<OperandType, N>& list, OperandType t) noexcept {
  for (OperandType x : list)
    if (x == t) return true;
  return false;
}

/// The kernels a kernel set entry E contributes to its table.
template <class E>
constexpr const OpKernel* entry_kernel() noexcept {
  using K = typename E::kernels;
  static_assert(Complete<K>, "nnhal: a kernel set names an operation whose kernels are not included "
                             "(include <nnhal/kernels/NAME.hpp> for each, or <nnhal/kernels/all.hpp>)");
  if constexpr (std::is_base_of_v<NoKernelsYet, K>) {
    return nullptr;
  } else if constexpr (std::is_base_of_v<ControlFlowKernels, K>) {
    return &kControlFlowKernel;
  } else if constexpr (E::types.size() == 0) {
    return kernel_for<K, K::types>(std::make_index_sequence<K::types.size()>{});
  } else {
    static_assert([] {
      for (OperandType t : E::types)
        if (!contains(K::types, t)) return false;
      return true;
    }(), "nnhal: a kernel set entry lists an operand type its operation has no kernel for");
    return kernel_for<K, E::types>(std::make_index_sequence<E::types.size()>{});
  }
}

}  // namespace detail

namespace detail {
/// True when every signature of `row` has, for its key-input type, a kernel in family K or an
/// entry of its `no_kernel` list, and every type with a kernel occurs in some signature.
template <class K>
constexpr bool family_covers_row(const OperationInfo& row) noexcept {
  if constexpr (std::is_base_of_v<NoKernelsYet, K> || std::is_base_of_v<ControlFlowKernels, K>) {
    return true;
  } else {
    for (const Signature& s : row.signatures) {
      if (K::key_input >= s.inputs.size) return false;
      const OperandType key = s.inputs[K::key_input];
      if (!contains(K::types, key) && !contains(K::no_kernel, key)) return false;
    }
    for (OperandType t : K::types) {
      bool used = false;
      for (const Signature& s : row.signatures) used = used || s.inputs[K::key_input] == t;
      if (!used) return false;
    }
    return true;
  }
}
}  // namespace detail

/// True when every signature of Op's row has, for its key-input type, a kernel in Kernels<Op>
/// or an entry of its `no_kernel` list, and every type with a kernel occurs in some signature.
template <OperationType Op>
constexpr bool kernels_cover_row() noexcept {
  return detail::family_covers_row<Kernels<Op>>(Row<Op>::info);
}

}  // namespace nnhal
