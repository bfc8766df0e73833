#pragma once
/// \file
/// The descriptor of a registered extension (ExtensionInfo, nnhal/interface/extension.hpp) built
/// at compile time from its definition: name, operand types, and each operation's row and
/// kernels, with the checks a definition must pass (a valid name, unique and well-formed operand
/// types and operations, signatures that name only the extension's own types, kernels that
/// cover every signature). Included by <nnhal/kernels/resolve.hpp>; a kernel set without
/// UseExtension entries instantiates nothing here.

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "nnhal/interface/extension.hpp"
#include "nnhal/kernels/kernel.hpp"

namespace nnhal {

namespace detail {

/// Picks, once at prepare time, the kernel of extension family K for the type of its key input
/// among Ts, where the extension's own operand types are named by their local codes
/// (extension_operand(n)): validation matched the node's types with the model's prefix, so
/// an extension type there is this extension's.
template <class K, OperandType... Ts>
Expected<KernelFn> select_extension_kernel(const NodeIO& io, KernelPrepare& prepare) {
  OperandType t = io.input(K::key_input).type;
  if (is_extension(t)) t = extension_operand(type_within_extension(static_cast<std::int32_t>(t)));
  Expected<KernelFn> chosen = NNHAL_FAILURE("no kernel for the key input's type 0x%x", static_cast<unsigned>(t));
  (void)((t == Ts && (chosen = K::template select<Ts>(io, prepare), true)) || ...);
  return chosen;
}

template <class K, OperandType... Ts>
inline constexpr OpKernel kExtensionFamilyKernel{&K::infer, &select_extension_kernel<K, Ts...>};

template <class K, std::size_t... I>
constexpr const OpKernel* extension_kernel_for(std::index_sequence<I...>) noexcept {
  return &kExtensionFamilyKernel<K, K::types[I]...>;
}

/// The kernels of family K for an extension operation: every type K has a kernel for.
template <class K>
constexpr const OpKernel* extension_kernel() noexcept {
  static_assert(Complete<K>, "nnhal: an extension operation names kernels that are not defined");
  static_assert(!std::is_base_of_v<ControlFlowKernels, K>, "nnhal: an extension operation cannot be control flow");
  if constexpr (std::is_base_of_v<NoKernelsYet, K>) {
    return nullptr;
  } else {
    return extension_kernel_for<K>(std::make_index_sequence<K::types.size()>{});
  }
}

template <class Op>
constexpr ExtensionOperation extension_operation() noexcept {
  static_assert(family_covers_row<typename Op::kernels>(Op::row::info),
                "nnhal: an extension operation's kernels must cover the key-input type of every signature "
                "of its row (or list it in no_kernel), and every type with a kernel must occur in a signature");
  return {Op::type, &Op::row::info, extension_kernel<typename Op::kernels>()};
}

template <class... Ops>
constexpr std::array<ExtensionOperation, sizeof...(Ops)> extension_operations(ExtensionOperations<Ops...>*) noexcept {
  return {extension_operation<Ops>()...};
}

/// The operations of extension X.
template <class X>
inline constexpr auto kExtensionOperations =
    extension_operations(static_cast<typename X::operations*>(nullptr));

/// True when every local code of `seq` names an operand type of the extension.
template <std::size_t N>
constexpr bool local_codes_defined(const TypeSeq& seq,
                                   const std::array<Extension::OperandTypeInformation, N>& types) noexcept {
  for (std::size_t i = 0; i < seq.size; ++i) {
    const std::uint8_t c = seq.code(i);
    if (!is_local_extension_code(c)) continue;
    bool found = false;
    for (const auto& t : types) found = found || t.type == c - kExtensionLocalBase;
    if (!found) return false;
  }
  return true;
}

/// The checks of an extension definition X.
template <class X>
constexpr bool extension_well_formed() noexcept {
  if (!is_valid_extension_name(X::name)) return false;
  const auto& types = X::operand_types;
  for (std::size_t i = 0; i < types.size(); ++i) {
    if (types[i].byteSize == 0 || types[i].type > kMaxLocalExtensionType) return false;
    for (std::size_t j = 0; j < i; ++j)
      if (types[j].type == types[i].type) return false;
  }
  const auto& ops = kExtensionOperations<X>;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j)
      if (ops[j].type == ops[i].type) return false;
    for (const Signature& s : ops[i].row->signatures)
      if (!local_codes_defined(s.inputs, types) || !local_codes_defined(s.outputs, types)) return false;
  }
  return true;
}

/// The descriptor of extension X.
template <class X>
inline constexpr ExtensionInfo kExtensionInfo = [] {
  static_assert(extension_well_formed<X>(),
                "nnhal: an extension needs a valid name (lowercase letters, digits, '.', '_', at least one "
                "'.'), operand types with unique codes <= 126 and byteSize > 0, operations with unique codes, "
                "and signatures that name only its own operand types");
  return ExtensionInfo{X::name, X::operand_types, kExtensionOperations<X>};
}();

}  // namespace detail

}  // namespace nnhal
