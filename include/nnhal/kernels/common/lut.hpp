#pragma once
/// \file
/// 256-entry lookup tables for unary 8-bit quantized kernels (LOGISTIC, TANH, HARD_SWISH): at
/// prepare, the exact scalar reference is evaluated once for every possible input byte and the
/// results are kept in the node's packed storage; the kernel then looks each element up. Bit
/// for bit the reference by construction (XNNPACK runs these operations the same way).

#include <bit>
#include <cstddef>
#include <cstdint>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/kernel.hpp"

namespace nnhal::kernels::lut {

/// Bytes of a table: one output byte per input byte.
inline constexpr std::size_t kTableBytes = 256;

/// Fills the node's packed storage with f(q) for every stored value q of E (uint8_t or int8_t),
/// indexed by q's byte. False when there is no packed storage (a dry run of the support query)
/// or prepare asks for reference kernels (KernelPrepare::reference): the caller then keeps its
/// per-element kernel.
template <class E, class F>
bool pack(KernelPrepare& prepare, F&& f) {
  static_assert(sizeof(E) == 1);
  if (prepare.reference) return false;
  std::byte* table = prepare.pack(kTableBytes);
  if (table == nullptr) return false;
  for (std::size_t b = 0; b < kTableBytes; ++b) {
    const E q = std::bit_cast<E>(static_cast<std::uint8_t>(b));
    table[b] = std::bit_cast<std::byte>(static_cast<E>(f(q)));
  }
  return true;
}

/// out[i] = table[byte of in[i]], the table in the node's packed storage (pack).
template <OperandType T>
Status kernel(const NodeIO& io) {
  const std::size_t n = static_cast<std::size_t>(io.input(0).dims.element_count());
  const auto* table = reinterpret_cast<const std::uint8_t*>(io.packed());
  const auto* in = reinterpret_cast<const std::uint8_t*>(io.in_data<T>(0));
  auto* out = reinterpret_cast<std::uint8_t*>(io.out_data<T>(0));
  std::size_t i = 0;
  // Four independent loads per step: the lookups do not wait on each other.
  for (; i + 4 <= n; i += 4) {
    const std::uint8_t a = table[in[i]], b = table[in[i + 1]], c = table[in[i + 2]], d = table[in[i + 3]];
    out[i] = a;
    out[i + 1] = b;
    out[i + 2] = c;
    out[i + 3] = d;
  }
  for (; i < n; ++i) out[i] = table[in[i]];
  return {};
}

}  // namespace nnhal::kernels::lut
