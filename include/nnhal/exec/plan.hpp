#pragma once
/// \file
/// The prepared form of a model: per subgraph, the operand records as known at prepare time,
/// where each operand's bytes live, and the nodes to run in order. A plan is immutable after
/// prepare and shared by every execution of the prepared model.

#include <cstddef>
#include <cstdint>
#include <variant>
#include <vector>

#include "nnhal/control/nodes.hpp"
#include "nnhal/core/arena.hpp"
#include "nnhal/interface/node_io.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal {

/// Where an operand's bytes come from at execution time.
enum class Storage : std::uint8_t {
  Constant,  ///< model constant; `RtOperand::data` already set at prepare time
  Input,     ///< subgraph input `io_index`, bound by the caller (request or IF/WHILE)
  Output,    ///< subgraph output `io_index`, bound to the caller's buffer or to its own slot
  Arena,     ///< temporary of known size at `arena_offset` in the execution's arena
  Dynamic,   ///< temporary whose size is only known at execution; own buffer
  None,      ///< no bytes (omitted operand, subgraph reference)
};

/// Per-operand execution facts decided at prepare time.
struct OperandPlan {
  Storage storage = Storage::None;
  std::uint32_t io_index = 0;      ///< for Input / Output
  std::uint32_t dynamic_slot = 0;  ///< for Dynamic: index of its buffer in the execution
  std::uint64_t arena_offset = 0;  ///< for Arena
};

/// An ordinary operation, with its kernel chosen at prepare time.
struct ComputeNode {
  ComputeNode() = default;
  /// Its packed data (if any) will live in `memory`.
  explicit ComputeNode(MemoryResource* memory) noexcept : packed(memory) {}

  const OperationInfo* info = nullptr;
  const OpKernel* op = nullptr;  ///< the kernel set's shape inference (for dynamic nodes)
  KernelFn kernel = nullptr;
  std::uint32_t inputs_at = 0, input_count = 0;    ///< range in SubgraphPlan::indexes
  std::uint32_t outputs_at = 0, output_count = 0;  ///< range in SubgraphPlan::indexes
  bool dynamic = false;  ///< output shapes are inferred at execution time
  /// An input may be omitted or zero-sized at execution time, so the executor checks them
  /// before the kernel runs (false when prepare proved every input present and non-empty).
  bool check_inputs = true;
  alignas(16) std::byte params[kNodeParamBytes] = {};
  /// Scratch bytes the kernel asked for, at `workspace_offset` in the subgraph's arena (planned
  /// like a temporary that lives while the node runs).
  std::uint64_t workspace_bytes = 0;
  std::uint64_t workspace_offset = 0;
  /// Data the kernel packed at prepare time (NodeIO::packed()).
  Vector<std::byte> packed;
};

/// One step of a prepared subgraph, visited by the one generic executor.
using Node = std::variant<ComputeNode, IfNode, WhileNode>;

/// A prepared subgraph.
struct SubgraphPlan {
  SubgraphPlan() = default;
  /// Its lists will live in `memory` (PrepareOptions::arena).
  explicit SubgraphPlan(MemoryResource* memory) noexcept
      : operands(memory), storage(memory), nodes(memory), indexes(memory), inputs(memory), outputs(memory) {}

  Vector<RtOperand> operands;  ///< records as known at prepare time (constants bound)
  Vector<OperandPlan> storage;
  Vector<Node> nodes;
  Vector<std::uint32_t> indexes;  ///< node operand lists, referenced by ranges
  Vector<std::uint32_t> inputs;   ///< operand index of each subgraph input
  Vector<std::uint32_t> outputs;  ///< operand index of each subgraph output
  std::uint64_t arena_bytes = 0;
  std::uint64_t arena_base = 0;  ///< where this subgraph's arena starts in an execution's arena
  std::uint32_t dynamic_count = 0;

  /// Outer operand indexes of a node's inputs / outputs.
  template <class N>
  std::span<const std::uint32_t> node_inputs(const N& n) const noexcept {
    return {indexes.data() + n.inputs_at, n.input_count};
  }
  template <class N>
  std::span<const std::uint32_t> node_outputs(const N& n) const noexcept {
    return {indexes.data() + n.outputs_at, n.output_count};
  }
};

/// Largest tensor nnhal lets an execution produce or bind, in bytes: the HAL bounds operand
/// sizes to uint32. The hard ceiling of Limits::max_tensor_bytes, which a driver may lower.
inline constexpr std::uint64_t kMaxTensorBytes = UINT32_MAX;

/// Checks a computed shape against a declared one (HAL13.md h.6: dims = merge of computed and
/// declared), and that its byte size fits `max_bytes` (Limits::max_tensor_bytes, at most
/// kMaxTensorBytes). `computed` keeps its shape.
inline Status merge_declared_shape(const RtOperand& declared, RtOperand& computed,
                                   std::uint64_t max_bytes = kMaxTensorBytes) noexcept {
  if (max_bytes > kMaxTensorBytes) max_bytes = kMaxTensorBytes;
  if (const std::uint64_t bytes = computed.required_bytes(); bytes > max_bytes)
    return NNHAL_FAILURE("a computed shape of %llu elements (%llu bytes) is above Limits::max_tensor_bytes (%llu)",
                         static_cast<unsigned long long>(computed.dims.element_count()),
                         static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(max_bytes));
  if (!declared.tensor() || !declared.rank_known) return {};
  if (declared.dims.rank() != computed.dims.rank())
    return NNHAL_FAILURE("computed rank %zu differs from the declared rank %zu",
                         computed.dims.rank(), declared.dims.rank());
  for (std::size_t i = 0; i < declared.dims.rank(); ++i)
    if (declared.dims[i] != 0 && declared.dims[i] != computed.dims[i])
      return NNHAL_FAILURE("computed dimension %zu is %" PRIu32 ", declared %" PRIu32, i,
                           computed.dims[i], declared.dims[i]);
  return {};
}


/// Checks that a runtime shape bound to a subgraph input agrees with what that input declares
/// (rank when known, every known dimension) and with the size limit: the subgraph was planned
/// for its declaration.
inline Status check_bound_shape(const RtOperand& declared, const RtOperand& bound,
                               std::uint64_t max_bytes = kMaxTensorBytes) noexcept {
  if (!bound.has_value() || !declared.tensor()) return {};
  if (max_bytes > kMaxTensorBytes) max_bytes = kMaxTensorBytes;
  if (bound.required_bytes() > max_bytes)
    return NNHAL_FAILURE("an input shape of %llu bytes is above Limits::max_tensor_bytes (%llu)",
                         static_cast<unsigned long long>(bound.required_bytes()),
                         static_cast<unsigned long long>(max_bytes));
  if (!declared.rank_known) return {};
  if (!bound.rank_known || bound.dims.rank() != declared.dims.rank())
    return NNHAL_FAILURE("input of rank %zu bound where rank %zu is declared", bound.dims.rank(), declared.dims.rank());
  for (std::size_t i = 0; i < declared.dims.rank(); ++i)
    if (declared.dims[i] != 0 && declared.dims[i] != bound.dims[i])
      return NNHAL_FAILURE("input dimension %zu is %" PRIu32 " where %" PRIu32 " is declared", i,
                           bound.dims[i], declared.dims[i]);
  return {};
}
}  // namespace nnhal
