#pragma once
/// \file
/// Byte sizes and alignment of declared operands: shared by validation, control-flow rules and
/// the device's policies.

#include <cstdint>

#include "nnhal/core/operand_traits.hpp"
#include "nnhal/core/result.hpp"
#include "nnhal/model/model.hpp"

namespace nnhal {

/// True when `p` is aligned for elements of operand type `t`.
inline bool is_aligned_for(OperandType t, const void* p) noexcept {
  const std::uint32_t a = element_size(t);
  return a <= 1 || reinterpret_cast<std::uintptr_t>(p) % a == 0;
}

/// Exact byte size of an operand with fully specified dimensions, or nullopt when the size is
/// unknown (unknown rank or a 0 dimension); an overflow of uint32 yields an error.
inline Expected<std::uint64_t> operand_byte_size(const Operand& op) noexcept {
  if (!is_tensor(op.type)) return std::uint64_t{element_size(op.type)};
  if (op.dimensions.empty()) return std::uint64_t{0};
  std::uint64_t n = element_size(op.type);
  for (std::uint32_t d : op.dimensions) {
    if (d == 0) return std::uint64_t{0};
    n *= d;  // at most 2^32 * 2^32 before the check below trips
    if (n > UINT32_MAX)
      return NNHAL_INVALID("data size overflows uint32 (the ceiling of Limits::max_tensor_bytes)");
  }
  return n;
}

}  // namespace nnhal
