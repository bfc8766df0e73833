#pragma once
/// \file
/// Matching an operation's operand types against the signatures of its table row.

#include <cstdio>
#include <optional>

#include "nnhal/core/result.hpp"
#include "nnhal/interface/operation_info.hpp"
#include "nnhal/interface/operation_view.hpp"

namespace nnhal {

/// True when signature `s` accepts the types of `op`'s operands.
inline bool signature_accepts(const Signature& s, const OperationView& op) noexcept {
  const std::size_t ni = op.input_count(), no = op.output_count();
  if (!s.inputs.accepts_count(ni) || !s.outputs.accepts_count(no)) return false;
  for (std::size_t i = 0; i < ni; ++i) {
    const std::uint8_t c = s.inputs.code_at(i, ni);
    if (c != kAnyTypeCode && c != static_cast<std::uint32_t>(op.input(i).type)) return false;
  }
  for (std::size_t i = 0; i < no; ++i) {
    const std::uint8_t c = s.outputs.code_at(i, no);
    if (c != kAnyTypeCode && c != static_cast<std::uint32_t>(op.output(i).type)) return false;
  }
  return true;
}

/// Lowest version among the signatures accepting `op`, or nullopt when none does.
inline std::optional<HalVersion> match_signature(const OperationInfo& info,
                                                 const OperationView& op) noexcept {
  std::optional<HalVersion> best;
  for (const Signature& s : info.signatures)
    if (signature_accepts(s, op) && (!best || s.version < *best)) best = s.version;
  return best;
}

/// "(TYPE, TYPE, ...)" for the inputs (outputs when `outputs`) of `op`, truncated to `cap`.
inline void describe_types(const OperationView& op, bool outputs, char* buf, std::size_t cap) noexcept {
  std::size_t at = 0;
  const std::size_t n = outputs ? op.output_count() : op.input_count();
  auto put = [&](const char* s) {
    const int w = std::snprintf(buf + at, cap - at, "%s", s);
    if (w > 0) at = at + static_cast<std::size_t>(w) < cap ? at + static_cast<std::size_t>(w) : cap - 1;
  };
  put("(");
  for (std::size_t i = 0; i < n && at + 1 < cap; ++i) {
    if (i) put(", ");
    put(to_string(outputs ? op.output(i).type : op.input(i).type).data());
  }
  put(")");
}

}  // namespace nnhal
