#pragma once
/// \file
/// Matching an operation's operand types against the signatures of its table row.

#include <optional>

#include "nnhal/core/format.hpp"
#include "nnhal/core/result.hpp"
#include "nnhal/interface/extension.hpp"
#include "nnhal/interface/operation_info.hpp"
#include "nnhal/interface/operation_view.hpp"

namespace nnhal {

/// True when signature code `c` accepts operand type `t`. In the row of an extension the model
/// maps to `prefix` (>= 0), local codes stand for that extension's operand types.
constexpr bool code_accepts(std::uint8_t c, OperandType t, std::int32_t prefix) noexcept {
  if (c == kAnyTypeCode) return true;
  if (prefix >= 0 && is_local_extension_code(c))
    return static_cast<std::int32_t>(t) ==
           extension_code(static_cast<std::uint16_t>(prefix), static_cast<std::uint16_t>(c - kExtensionLocalBase));
  return c == static_cast<std::int32_t>(t);
}

/// True when signature `s` accepts the types of `op`'s operands (`prefix`: see code_accepts;
/// -1 for built-in rows).
inline bool signature_accepts(const Signature& s, const OperationView& op, std::int32_t prefix = -1) noexcept {
  const std::size_t ni = op.input_count(), no = op.output_count();
  if (!s.inputs.accepts_count(ni) || !s.outputs.accepts_count(no)) return false;
  for (std::size_t i = 0; i < ni; ++i)
    if (!code_accepts(s.inputs.code_at(i, ni), op.input(i).type, prefix)) return false;
  for (std::size_t i = 0; i < no; ++i)
    if (!code_accepts(s.outputs.code_at(i, no), op.output(i).type, prefix)) return false;
  return true;
}

/// Lowest version among the signatures accepting `op`, or nullopt when none does.
inline std::optional<HalVersion> match_signature(const OperationInfo& info, const OperationView& op,
                                                 std::int32_t prefix = -1) noexcept {
  std::optional<HalVersion> best;
  for (const Signature& s : info.signatures)
    if (signature_accepts(s, op, prefix) && (!best || s.version < *best)) best = s.version;
  return best;
}

/// "(TYPE, TYPE, ...)" for the inputs (outputs when `outputs`) of `op`, truncated to `cap`.
/// Text for a message only: "" with NNHAL_ERROR_MESSAGES=0.
inline void describe_types(const OperationView& op, bool outputs, char* buf, std::size_t cap) noexcept {
  if constexpr (!NNHAL_ERROR_MESSAGES) {
    if (cap != 0) buf[0] = '\0';
    return;
  }
  std::size_t at = 0;
  const std::size_t n = outputs ? op.output_count() : op.input_count();
  auto put = [&](const char* s) {
    const std::size_t w = nnhal::format(buf + at, cap - at, "%s", s);
    at = at + w < cap ? at + w : cap - 1;
  };
  put("(");
  for (std::size_t i = 0; i < n && at + 1 < cap; ++i) {
    if (i) put(", ");
    const OperandType t = outputs ? op.output(i).type : op.input(i).type;
    if (is_extension(t)) {
      char ext[32];
      nnhal::format(ext, sizeof ext, "EXTENSION(0x%x)", static_cast<unsigned>(t));
      put(ext);
    } else {
      put(to_string(t).data());
    }
  }
  put(")");
}

}  // namespace nnhal
