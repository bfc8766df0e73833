#pragma once
/// \file
/// Building a SubgraphPlan: operand records, static shape inference, kernel choice once per
/// node, and the memory plan (one arena laid out from the temporaries' lifetimes).

#include <algorithm>
#include <iterator>
#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <span>

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

/// Fixed-size blocks for the nodes of plan_arena's two search trees, taken from `mem` in one
/// piece before the trees start: they never allocate on their own, so an arena that is too small
/// is found before (RESOURCE_EXHAUSTED_PERSISTENT), not during, the layout.
class TreeNodePool final : public MemoryResource {
 public:
  /// A red-black tree node holding a pair of uint64 (48 bytes in libstdc++ and libc++).
  static constexpr std::size_t kBlockBytes = 64;

  /// `count` blocks from `mem`; false when they are not there (mem.exhausted() says so).
  [[nodiscard]] bool reserve(const Memories& mem, std::size_t count) noexcept {
    if (!blocks_.allocate(mem, count)) return false;
    for (Block& b : blocks_) push(&b);
    return true;
  }

 private:
  struct Block {
    alignas(16) std::byte bytes[kBlockBytes];
  };
  /// A free block holds the address of the next free one in its first bytes.
  void push(Block* b) noexcept {
    std::memcpy(b->bytes, &free_, sizeof free_);
    free_ = b;
  }
  void* do_allocate(std::size_t bytes, std::size_t align) override {
    if (bytes > kBlockBytes || align > alignof(Block) || free_ == nullptr) NNHAL_ARENA_OVERFLOW();
    Block* b = free_;
    std::memcpy(&free_, b->bytes, sizeof free_);
    return b->bytes;
  }
  void do_deallocate(void* p, std::size_t, std::size_t) noexcept override { push(static_cast<Block*>(p)); }

  Scratch<Block> blocks_;
  Block* free_ = nullptr;
};

/// Lays out the temporaries of known size in one arena by replaying the execution order:
/// a node's outputs take the best-fitting free block (64-byte aligned), and a temporary's block
/// is freed after its last reader runs, coalescing with free neighbours. O(n log n) in the number
/// of temporaries. Its scratch comes from `mem`.
inline Status plan_arena(SubgraphPlan& plan, std::span<const std::uint32_t> first_use,
                         std::span<const std::uint32_t> last_use, std::size_t node_count, const Memories& mem) {
  // A node's workspace is taken after its outputs and released before the next node, so it
  // never overlaps a live tensor of that node.
  constexpr std::uint64_t kAlign = 64;
  const std::size_t n = plan.operands.size();
  Scratch<std::uint64_t> bytes;
  // The temporaries born and dying at each node, as two lists grouped by node (counting sort).
  Scratch<std::uint32_t> born_at, dies_at;
  if (!bytes.allocate(mem, n) || !born_at.allocate(mem, node_count + 1) || !dies_at.allocate(mem, node_count + 1))
    return mem.exhausted();
  std::size_t temporaries = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (plan.storage[i].storage != Storage::Arena) continue;
    bytes[i] = (plan.operands[i].required_bytes() + kAlign - 1) & ~(kAlign - 1);
    if (bytes[i] == 0) continue;
    ++temporaries;
    ++born_at[first_use[i] + 1];
    ++dies_at[last_use[i] + 1];
  }
  for (std::size_t k = 0; k < node_count; ++k) {
    born_at[k + 1] += born_at[k];
    dies_at[k + 1] += dies_at[k];
  }
  Scratch<std::uint32_t> born, dies;
  if (!born.allocate(mem, temporaries) || !dies.allocate(mem, temporaries)) return mem.exhausted();
  {
    Scratch<std::uint32_t> born_next, dies_next;
    if (!born_next.allocate(mem, node_count + 1) || !dies_next.allocate(mem, node_count + 1)) return mem.exhausted();
    std::memcpy(born_next.data(), born_at.data(), (node_count + 1) * sizeof(std::uint32_t));
    std::memcpy(dies_next.data(), dies_at.data(), (node_count + 1) * sizeof(std::uint32_t));
    for (std::uint32_t i = 0; i < n; ++i) {
      if (bytes[i] == 0) continue;
      born[born_next[first_use[i]]++] = i;
      dies[dies_next[last_use[i]]++] = i;
    }
  }
  // The free blocks are never adjacent (they coalesce), so there are at most one more of them
  // than blocks in use: the live temporaries and one workspace. Each tree holds every free
  // block, and one more while a block is replaced.
  TreeNodePool pool;
  if (!pool.reserve(mem, 2 * (temporaries + 3))) return mem.exhausted();
  using Block = std::pair<std::uint64_t, std::uint64_t>;
  std::map<std::uint64_t, std::uint64_t, std::less<>, Allocator<std::pair<const std::uint64_t, std::uint64_t>>>
      free_by_offset(&pool);                                                    // offset -> size
  std::set<Block, std::less<>, Allocator<Block>> free_by_size(&pool);  // (size, offset)
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
    for (std::uint32_t j = born_at[k]; j < born_at[k + 1]; ++j) plan.storage[born[j]].arena_offset = take(bytes[born[j]]);
    if (auto* node = std::get_if<ComputeNode>(&plan.nodes[k]); node != nullptr && node->workspace_bytes != 0) {
      const std::uint64_t ws = (node->workspace_bytes + kAlign - 1) & ~(kAlign - 1);
      node->workspace_offset = take(ws);
      release(node->workspace_offset, ws);
    }
    for (std::uint32_t j = dies_at[k]; j < dies_at[k + 1]; ++j) release(plan.storage[dies[j]].arena_offset, bytes[dies[j]]);
  }
  plan.arena_bytes = end;
  return {};
}

}  // namespace detail

/// Appends a node's operand lists to `plan.indexes` (which has room for them) and records their
/// ranges in `node`.
template <class N>
void add_operand_lists(SubgraphPlan& plan, N& node, std::span<const std::uint32_t> inputs,
                       std::span<const std::uint32_t> outputs) {
  NNHAL_ASSERT(plan.indexes.size() + inputs.size() + outputs.size() <= plan.indexes.capacity());
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
/// WHILE that runs it. The plan's lists grow in `mem` (the memory `plan` was made with), and so
/// does the scratch, given back on return.
inline Status prepare_subgraph(const Model& model, const Subgraph& sg, bool is_main, SubgraphPlan& plan,
                               PrepareCounters& counters, const KernelTable& kernels, const Memories& mem = {}) {
  const std::size_t n = sg.operands.size();
  // Every list gets its final size here, before anything is filled in: nothing grows later.
  std::size_t index_count = 0;
  for (const Operation& operation : sg.operations) index_count += operation.inputs.size() + operation.outputs.size();
  if (!mem.resize(plan.operands, n)) return mem.exhausted();
  if (!mem.assign(plan.storage, n, OperandPlan{})) return mem.exhausted();
  if (!mem.assign(plan.inputs, std::span<const std::uint32_t>(sg.inputIndexes))) return mem.exhausted();
  if (!mem.assign(plan.outputs, std::span<const std::uint32_t>(sg.outputIndexes))) return mem.exhausted();
  plan.nodes.clear();
  plan.indexes.clear();
  if (!mem.reserve(plan.nodes, sg.operations.size())) return mem.exhausted();
  if (!mem.reserve(plan.indexes, index_count)) return mem.exhausted();
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
  for (std::uint32_t k = 0; k < sg.inputIndexes.size(); ++k)
    plan.storage[sg.inputIndexes[k]] = {Storage::Input, k, 0, 0};
  for (std::uint32_t k = 0; k < sg.outputIndexes.size(); ++k)
    plan.storage[sg.outputIndexes[k]] = {Storage::Output, k, 0, 0};

  Scratch<std::uint32_t> first_use, last_use;
  if (!first_use.allocate(mem, n) || !last_use.allocate(mem, n)) return mem.exhausted();
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

    ComputeNode node(mem.resource());
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
    setup.memory = mem;
    setup.concurrency = counters.concurrency;
    setup.reference = counters.reference;
    auto kernel = op->select(io, setup);
    if (!kernel)
      return std::move(kernel.error().prefix("operation %" PRIu32 " (%s)", k, info->name.data()));
    if (setup.exhausted != 0)
      return std::move(mem.exhausted(setup.exhausted).prefix("operation %" PRIu32 " (%s): packing its data", k, info->name.data()));
    node.kernel = *kernel;
    node.workspace_bytes = setup.workspace_bytes;
    plan.nodes.emplace_back(std::move(node));
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
  return detail::plan_arena(plan, first_use, last_use, sg.operations.size(), mem);
}

}  // namespace nnhal
