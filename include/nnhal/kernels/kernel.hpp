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

inline constexpr std::array<OperandType, 0> kNoFamilyTypes{};

/// The operand types family K has kernels for; none for IF, WHILE and NoKernelsYet.
template <class K>
constexpr const auto& family_types() noexcept {
  if constexpr (std::is_base_of_v<KernelFamily, K>) return K::types;
  else return kNoFamilyTypes;
}

/// Picks, once at prepare time, the kernel of family K for the type of its key input among the
/// types Types[I]... of a kernel set entry. A class template whose member is defined out of
/// class (not inline), so that the kernels of one family can be compiled in one file of a
/// program and declared extern in the others (NNHAL_EXTERN_KERNELS_OF): everything a family
/// compiles is reached from here.
template <class K, const auto& Types, class Seq = std::make_index_sequence<Types.size()>>
struct FamilySelect;
template <class K, const auto& Types, std::size_t... I>
struct FamilySelect<K, Types, std::index_sequence<I...>> {
  static Expected<KernelFn> select(const NodeIO& io, KernelPrepare& prepare);
};
template <class K, const auto& Types, std::size_t... I>
Expected<KernelFn> FamilySelect<K, Types, std::index_sequence<I...>>::select(const NodeIO& io,
                                                                             KernelPrepare& prepare) {
  if constexpr (sizeof...(I) == 0) {
    (void)prepare;
    return NNHAL_FAILURE("no kernel for %s in this kernel set", to_string(io.input(0).type).data());
  } else {
    const OperandType t = io.input(K::key_input).type;
    Expected<KernelFn> chosen = NNHAL_FAILURE("no kernel for %s in this kernel set", to_string(t).data());
    (void)((t == Types[I] && (chosen = K::template select<Types[I]>(io, prepare), true)) || ...);
    return chosen;
  }
}

/// The kernels of family K for the operand types listed in `Types` (a constexpr array).
template <class K, const auto& Types>
inline constexpr OpKernel kFamilyKernel{&K::infer, &FamilySelect<K, Types>::select};

inline constexpr OpKernel kControlFlowKernel{nullptr, nullptr, true};

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
    return &kFamilyKernel<K, family_types<K>()>;
  } else {
    static_assert([] {
      for (OperandType t : E::types)
        if (!contains(K::types, t)) return false;
      return true;
    }(), "nnhal: a kernel set entry lists an operand type its operation has no kernel for");
    return &kFamilyKernel<K, E::types>;
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

/// The kernels of every type of operation `name` (an OperationType enumerator), compiled in
/// another file of the program: a file that prepares with a set using them (the default set,
/// say) then compiles none of their code. Another file says NNHAL_INSTANTIATE_KERNELS_OF(name)
/// after including the kernels. nnhal's own build splits the default set's kernels over
/// several files this way, so that they compile in parallel.
#define NNHAL_EXTERN_KERNELS_OF(name)                                                    \
  extern template struct nnhal::detail::FamilySelect<nnhal::Kernels<nnhal::OperationType::name>, \
                                                     nnhal::detail::family_types<nnhal::Kernels<nnhal::OperationType::name>>()>
#define NNHAL_INSTANTIATE_KERNELS_OF(name)                                        \
  template struct nnhal::detail::FamilySelect<nnhal::Kernels<nnhal::OperationType::name>, \
                                              nnhal::detail::family_types<nnhal::Kernels<nnhal::OperationType::name>>()>
