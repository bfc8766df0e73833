#pragma once
/// \file
/// Building a SubgraphPlan: operand records, static shape inference, kernel choice once per
/// node, and the memory plan (one arena laid out from the temporaries' lifetimes).

#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <span>
#include <cstdint>
#include <vector>

#include "nnhal/exec/plan.hpp"
#include "nnhal/model/model.hpp"
#include "nnhal/interface/extension.hpp"
#include "nnhal/interface/kernel_set.hpp"
#include "nnhal/ops/registry.hpp"

namespace nnhal {

namespace detail {

/// True when every tensor input of a node has a known shape and every input whose value shape
/// inference may read (any scalar, and the tensors the row flags kSlotValueRead) is a constant.
inline bool inputs_static(const SubgraphPlan& plan, const OperationInfo& info,
                          std::span<const std::uint32_t> inputs) noexcept {
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const RtOperand& op = plan.operands[inputs[i]];
    if (!op.has_value()) continue;
    if (!op.shape_known()) return false;
    const bool value_needed =
        !op.tensor() || (i < 64 && ((info.value_inputs >> i) & 1u) != 0);
    if (value_needed && plan.storage[inputs[i]].storage != Storage::Constant) return false;
  }
  return true;
}

/// Lays out the temporaries of known size in one arena by replaying the execution order:
/// a node's outputs take the best-fitting free block (64-byte aligned), and a temporary's block
/// is freed after its last reader runs, coalescing with free neighbours. O(n log n) in the number
/// of temporaries.
inline void plan_arena(SubgraphPlan& plan, const std::vector<std::uint32_t>& first_use,
                       const std::vector<std::uint32_t>& last_use, std::size_t node_count) {
  // A node's workspace is taken after its outputs and released before the next node, so it
  // never overlaps a live tensor of that node.
  constexpr std::uint64_t kAlign = 64;
  std::vector<std::vector<std::uint32_t>> born(node_count), dies(node_count);
  std::vector<std::uint64_t> bytes(plan.operands.size(), 0);
  for (std::uint32_t i = 0; i < plan.operands.size(); ++i) {
    if (plan.storage[i].storage != Storage::Arena) continue;
    bytes[i] = (plan.operands[i].required_bytes() + kAlign - 1) & ~(kAlign - 1);
    if (bytes[i] == 0) continue;
    born[first_use[i]].push_back(i);
    dies[last_use[i]].push_back(i);
  }
  std::map<std::uint64_t, std::uint64_t> free_by_offset;       // offset -> size
  std::set<std::pair<std::uint64_t, std::uint64_t>> free_by_size;  // (size, offset)
  std::uint64_t end = 0;
  auto take = [&](std::uint64_t need) {
    auto it = free_by_size.lower_bound({need, 0});
    if (it == free_by_size.end()) {
      // Grow the arena, merging a free block that ends at the current end.
      std::uint64_t at = end;
      if (!free_by_offset.empty()) {
        auto last = std::prev(free_by_offset.end());
        if (last->first + last->second == end) {
          at = last->first;
          free_by_size.erase({last->second, last->first});
          free_by_offset.erase(last);
        }
      }
      end = at + need;
      return at;
    }
    const auto [size, at] = *it;
    free_by_size.erase(it);
    free_by_offset.erase(at);
    if (size > need) {
      free_by_offset[at + need] = size - need;
      free_by_size.insert({size - need, at + need});
    }
    return at;
  };
  auto release = [&](std::uint64_t at, std::uint64_t size) {
    auto next = free_by_offset.lower_bound(at);
    if (next != free_by_offset.end() && at + size == next->first) {
      size += next->second;
      free_by_size.erase({next->second, next->first});
      next = free_by_offset.erase(next);
    }
    if (next != free_by_offset.begin()) {
      auto prev = std::prev(next);
      if (prev->first + prev->second == at) {
        at = prev->first;
        size += prev->second;
        free_by_size.erase({prev->second, prev->first});
        free_by_offset.erase(prev);
      }
    }
    free_by_offset[at] = size;
    free_by_size.insert({size, at});
  };
  for (std::size_t k = 0; k < node_count; ++k) {
    for (std::uint32_t i : born[k]) plan.storage[i].arena_offset = take(bytes[i]);
    if (auto* node = std::get_if<ComputeNode>(&plan.nodes[k]); node != nullptr && node->workspace_bytes != 0) {
      const std::uint64_t ws = (node->workspace_bytes + kAlign - 1) & ~(kAlign - 1);
      node->workspace_offset = take(ws);
      release(node->workspace_offset, ws);
    }
    for (std::uint32_t i : dies[k]) release(plan.storage[i].arena_offset, bytes[i]);
  }
  plan.arena_bytes = end;
}

}  // namespace detail

/// Appends a node's operand lists to `plan.indexes` and records their ranges in `node`.
template <class N>
void add_operand_lists(SubgraphPlan& plan, N& node, std::span<const std::uint32_t> inputs,
                       std::span<const std::uint32_t> outputs) {
  node.inputs_at = static_cast<std::uint32_t>(plan.indexes.size());
  node.input_count = static_cast<std::uint32_t>(inputs.size());
  plan.indexes.insert(plan.indexes.end(), inputs.begin(), inputs.end());
  node.outputs_at = static_cast<std::uint32_t>(plan.indexes.size());
  node.output_count = static_cast<std::uint32_t>(outputs.size());
  plan.indexes.insert(plan.indexes.end(), outputs.begin(), outputs.end());
}

/// Counts WHILE nodes across all subgraphs as they are prepared (each gets its own state).
struct PrepareCounters {
  std::uint32_t while_nodes = 0;
  /// Pieces a kernel may run at once (KernelPrepare::concurrency).
  std::size_t concurrency = 1;
  /// Kernels take their plain reference path (KernelPrepare::reference).
  bool reference = false;
  /// Limits::max_tensor_bytes, for shapes inferred at prepare time.
  std::uint64_t max_tensor_bytes = kMaxTensorBytes;
};

namespace detail {
/// Whether a node's inputs can be omitted or zero-sized when it runs: main's inputs can be
/// omitted by a request; a tensor whose shape prepare could not prove non-empty can be empty.
/// (Inputs of referenced subgraphs always have a value: IF and WHILE take no omitted operand,
/// and binding one fails.)
inline bool inputs_need_checks(const SubgraphPlan& plan, std::span<const std::uint32_t> ins, bool is_main) {
  for (std::uint32_t in : ins) {
    const RtOperand& r = plan.operands[in];
    if (!r.has_value() || (is_main && r.lifetime == OperandLifeTime::SUBGRAPH_INPUT)) return true;
    if (r.tensor() && !(r.shape_known() && r.dims.element_count() != 0)) return true;
  }
  return false;
}
}  // namespace detail

/// Prepares subgraph `sg` of `model` (which must be valid and outlive the plan). For the main
/// subgraph inputs and outputs are bound from the request; for a referenced one, by the IF or
/// WHILE that runs it.
inline Status prepare_subgraph(const Model& model, const Subgraph& sg, bool is_main,
                               SubgraphPlan& plan, PrepareCounters& counters, const KernelTable& kernels) {
  const std::size_t n = sg.operands.size();
  plan.operands.resize(n);
  plan.storage.assign(n, OperandPlan{});
  for (std::size_t i = 0; i < n; ++i) {
    auto r = make_record(model, sg.operands[i],
                         find_extension_operand_type(model, kernels.extensions, sg.operands[i].type));
    if (!r) return std::move(r.error().prefix("operand %zu", i));
    plan.operands[i] = *r;
    switch (sg.operands[i].lifetime) {
      case OperandLifeTime::CONSTANT_COPY:
      case OperandLifeTime::CONSTANT_REFERENCE: plan.storage[i].storage = Storage::Constant; break;
      case OperandLifeTime::TEMPORARY_VARIABLE: plan.storage[i].storage = Storage::Arena; break;
      default: plan.storage[i].storage = Storage::None; break;
    }
  }
  plan.inputs = sg.inputIndexes;
  plan.outputs = sg.outputIndexes;
  for (std::uint32_t k = 0; k < sg.inputIndexes.size(); ++k)
    plan.storage[sg.inputIndexes[k]] = {Storage::Input, k, 0, 0};
  for (std::uint32_t k = 0; k < sg.outputIndexes.size(); ++k)
    plan.storage[sg.outputIndexes[k]] = {Storage::Output, k, 0, 0};

  std::vector<std::uint32_t> first_use(n, 0), last_use(n, 0);
  plan.nodes.clear();
  plan.indexes.clear();
  for (std::uint32_t k = 0; k < sg.operations.size(); ++k) {
    const Operation& operation = sg.operations[k];
    const OperationInfo* info = kernels.rows->find(operation.type);
    const OpKernel* op = kernels.find(operation.type);
    if (is_extension(operation.type)) {
      auto found = resolve_extension_operation(model, kernels.extensions, operation.type);
      if (!found) return std::move(found.error().prefix("operation %" PRIu32, k));
      info = (*found)->row;
      op = (*found)->kernel;
    }
    if (info == nullptr || op == nullptr)
      return NNHAL_FAILURE("operation %" PRIu32 " (%s) has no kernel in this program's kernel set",
                           k, info ? info->name.data() : "unknown");
    for (std::uint32_t in : operation.inputs) last_use[in] = k;
    for (std::uint32_t out : operation.outputs) first_use[out] = last_use[out] = k;

    if (op->control_flow) {
      for (std::uint32_t i : operation.inputs)
        if (is_extension(sg.operands[i].type))
          return NNHAL_FAILURE("operation %" PRIu32 " (%s): operand %" PRIu32
                               " has an extension type; IF and WHILE do not take them",
                               k, info->name.data(), i);
      for (std::uint32_t o : operation.outputs)
        if (is_extension(sg.operands[o].type))
          return NNHAL_FAILURE("operation %" PRIu32 " (%s): operand %" PRIu32
                               " has an extension type; IF and WHILE do not take them",
                               k, info->name.data(), o);
    }
    if (operation.type == OperationType::IF) {
      IfNode node;
      node.condition = operation.inputs[0];
      for (int b = 0; b < 2; ++b)
        node.branch[b] = 1 + sg.operands[operation.inputs[1 + b]].location.offset;
      add_operand_lists(plan, node, std::span(operation.inputs).subspan(3), operation.outputs);
      plan.nodes.emplace_back(node);
      continue;
    }
    if (operation.type == OperationType::WHILE) {
      WhileNode node;
      node.condition = 1 + sg.operands[operation.inputs[0]].location.offset;
      node.body = 1 + sg.operands[operation.inputs[1]].location.offset;
      node.carried = static_cast<std::uint32_t>(
          model.referenced[node.body - 1].outputIndexes.size());
      node.state = counters.while_nodes++;
      add_operand_lists(plan, node, std::span(operation.inputs).subspan(2), operation.outputs);
      plan.nodes.emplace_back(node);
      continue;
    }

    ComputeNode node;
    node.info = info;
    node.op = op;
    add_operand_lists(plan, node, operation.inputs, operation.outputs);
    const auto ins = plan.node_inputs(node);
    const auto outs = plan.node_outputs(node);
    const NodeIO io(plan.operands.data(), ins, outs);
    node.dynamic = !detail::inputs_static(plan, *info, ins);
    node.check_inputs = detail::inputs_need_checks(plan, ins, is_main);
    if (!node.dynamic) {
      if (auto s = op->infer(io); !s)
        return std::move(s.error().prefix("operation %" PRIu32 " (%s)", k, info->name.data()));
      for (std::uint32_t out : outs) {
        RtOperand& rec = plan.operands[out];
        rec.rank_known = true;
        rec.shape_fixed = true;
        RtOperand declared =
            *make_record(model, sg.operands[out], find_extension_operand_type(model, kernels.extensions, sg.operands[out].type));
        if (auto s = merge_declared_shape(declared, rec, counters.max_tensor_bytes); !s)
          return std::move(s.error().prefix("operation %" PRIu32 " (%s) output operand %" PRIu32, k,
                                            info->name.data(), out));
      }
    }
    KernelPrepare setup{std::span<std::byte, kNodeParamBytes>(node.params)};
    setup.packed = &node.packed;
    setup.concurrency = counters.concurrency;
    setup.reference = counters.reference;
    auto kernel = op->select(io, setup);
    if (!kernel)
      return std::move(kernel.error().prefix("operation %" PRIu32 " (%s)", k, info->name.data()));
    node.kernel = *kernel;
    node.workspace_bytes = setup.workspace_bytes;
    plan.nodes.emplace_back(node);
  }

  // Temporaries whose size is still unknown get their own buffer at execution time.
  plan.dynamic_count = 0;
  for (std::size_t i = 0; i < n; ++i) {
    OperandPlan& st = plan.storage[i];
    if (st.storage == Storage::Arena && !plan.operands[i].shape_known()) {
      st.storage = Storage::Dynamic;
      st.dynamic_slot = plan.dynamic_count++;
    }
  }
  detail::plan_arena(plan, first_use, last_use, sg.operations.size());
  return {};
}

}  // namespace nnhal
