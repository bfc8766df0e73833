#pragma once
/// \file
/// The kernel of the operations whose output holds the input's bytes unchanged under another
/// shape (SQUEEZE, EXPAND_DIMS): a copy, or nothing when the executor let the output share the
/// input's buffer.

#include <cstdint>
#include <cstring>

#include "nnhal/interface/node_io.hpp"

namespace nnhal::kernels {

inline Status copy_input_bytes(const NodeIO& io) {
  const RtOperand& in = io.input(0);
  const RtOperand& out = io.output(0);
  const std::uint64_t bytes = in.required_bytes();
  if (bytes == 0 || out.data == in.data) return {};
  if (bytes > out.length) return NNHAL_FAILURE("output buffer too small");
  std::memcpy(out.data, in.data, static_cast<std::size_t>(bytes));
  return {};
}

}  // namespace nnhal::kernels
