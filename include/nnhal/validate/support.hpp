#pragma once
/// \file
/// The supported-operations query (HAL13.md c.1.1): after validating the whole model, one flag
/// per operation of the main subgraph. An ordinary operation is supported when the kernel set
/// selects a kernel for its operand types (the same choice prepare makes: one source of truth);
/// IF and WHILE only when the set runs control flow and every operation of every subgraph they
/// reference, transitively, is supported.

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "nnhal/interface/kernel_set.hpp"
#include "nnhal/interface/node_io.hpp"
#include "nnhal/ops/registry.hpp"
#include "nnhal/validate/model.hpp"

namespace nnhal {

namespace detail {

/// The kernels of `type` in `kernels`: a built-in operation's, or those of the registered
/// extension operation `model` maps it to; nullptr when there are none.
inline const OpKernel* find_kernel(const KernelTable& kernels, const Model& model, OperationType type) {
  if (!is_extension(type)) return kernels.find(type);
  auto found = resolve_extension_operation(model, kernels.extensions, type);
  return found ? (*found)->kernel : nullptr;
}

/// The name of `type` for messages: a built-in operation's (from the names table, which needs
/// no row: a set with SetRowsOnly links no other operation's), or that of the registered
/// extension operation `model` maps it to; "?" when there is none.
inline const char* name_of_operation(const KernelTable& kernels, const Model& model, OperationType type) {
  if (!is_extension(type)) {
    const auto code = static_cast<std::int32_t>(type);
    return code >= 0 && code < kOperationTypeCount ? to_string(type).data() : "?";
  }
  auto found = resolve_extension_operation(model, kernels.extensions, type);
  return found && (*found)->row != nullptr ? (*found)->row->name.data() : "?";
}

/// Index of the first operand of `operation` whose type is an extension's, or -1. IF and WHILE
/// do not take operands of extension types (their subgraphs' operations may).
inline std::ptrdiff_t extension_operand_position(const Subgraph& sg, const Operation& operation) noexcept {
  for (std::uint32_t i : operation.inputs)
    if (is_extension(sg.operands[i].type)) return static_cast<std::ptrdiff_t>(i);
  for (std::uint32_t o : operation.outputs)
    if (is_extension(sg.operands[o].type)) return static_cast<std::ptrdiff_t>(o);
  return -1;
}

/// True when the kernel choice of `op` accepts the declared operand records of `operation`.
inline bool kernel_available(const Model& model, const Subgraph& sg, const Operation& operation,
                             const OpKernel& op, ExtensionList extensions) {
  if (op.select == nullptr) return false;
  std::vector<RtOperand> records;
  std::vector<std::uint32_t> ins, outs;
  records.reserve(operation.inputs.size() + operation.outputs.size());
  for (std::uint32_t i : operation.inputs) {
    auto r = make_record(model, sg.operands[i], find_extension_operand_type(model, extensions, sg.operands[i].type));
    if (!r) return false;
    ins.push_back(static_cast<std::uint32_t>(records.size()));
    records.push_back(*r);
  }
  for (std::uint32_t o : operation.outputs) {
    auto r = make_record(model, sg.operands[o], find_extension_operand_type(model, extensions, sg.operands[o].type));
    if (!r) return false;
    outs.push_back(static_cast<std::uint32_t>(records.size()));
    records.push_back(*r);
  }
  alignas(16) std::byte params[kNodeParamBytes];
  const NodeIO io(records.data(), ins, outs);
  KernelPrepare setup{std::span<std::byte, kNodeParamBytes>(params)};
  setup.dry_run = true;
  return op.select(io, setup).has_value();
}

/// Support flags of every operation of `sg`. Referenced subgraphs are evaluated once each, in
/// post-order of an iterative DFS (no recursion on untrusted nesting depth); validation has
/// already rejected reference cycles.
class SupportQuery {
 public:
  /// `allowed`, when given, further restricts every operation (a device's policy).
  using Filter = std::function<bool(const Subgraph&, const Operation&)>;
  SupportQuery(const Model& model, const KernelTable& kernels, Filter allowed = {})
      : model_(model), kernels_(kernels), allowed_(std::move(allowed)), supported_(model.referenced.size(), 0) {
    const std::size_t n = model.referenced.size();
    std::vector<std::uint8_t> done(n, 0);
    struct Frame {
      std::size_t graph;
      std::size_t next_operand;
    };
    std::vector<Frame> stack;
    for (std::size_t root = 0; root < n; ++root) {
      if (done[root]) continue;
      stack.push_back({root, 0});
      done[root] = 1;
      while (!stack.empty()) {
        Frame& f = stack.back();
        const auto& operands = model.referenced[f.graph].operands;
        bool descended = false;
        while (f.next_operand < operands.size()) {
          const Operand& op = operands[f.next_operand++];
          if (op.lifetime == OperandLifeTime::SUBGRAPH && !done[op.location.offset]) {
            done[op.location.offset] = 1;
            stack.push_back({op.location.offset, 0});
            descended = true;
            break;
          }
        }
        if (descended) continue;
        // Every subgraph this one references is evaluated: evaluate it.
        const Subgraph& sg = model.referenced[f.graph];
        bool all = true;
        for (const Operation& op : sg.operations) all = all && operation(sg, op);
        supported_[f.graph] = all ? 1 : 0;
        stack.pop_back();
      }
    }
  }

  std::vector<bool> operations(const Subgraph& sg) const {
    std::vector<bool> out(sg.operations.size(), false);
    for (std::size_t k = 0; k < sg.operations.size(); ++k) out[k] = operation(sg, sg.operations[k]);
    return out;
  }

 private:
  bool operation(const Subgraph& sg, const Operation& op) const {
    const OpKernel* kernel = find_kernel(kernels_, model_, op.type);
    if (kernel == nullptr) return false;
    if (allowed_ && !allowed_(sg, op)) return false;
    if (!kernel->control_flow) return kernel_available(model_, sg, op, *kernel, kernels_.extensions);
    if (extension_operand_position(sg, op) >= 0) return false;
    for (std::uint32_t in : op.inputs) {
      const Operand& operand = sg.operands[in];
      if (operand.lifetime == OperandLifeTime::SUBGRAPH && !supported_[operand.location.offset]) return false;
    }
    return true;
  }

  const Model& model_;
  const KernelTable& kernels_;
  Filter allowed_;
  std::vector<std::uint8_t> supported_;
};

}  // namespace detail

/// Validates `model` and reports, for each operation of its main subgraph, whether the kernels
/// of `kernels` can execute it (and `allowed`, a device's policy, accepts it, when given).
/// INVALID_ARGUMENT for an invalid model.
/// Extension codes are valid when `kernels` registers their extension (or `options.extensions`
/// names it, when not empty).
/// The model is validated against the set's rows (KernelTable::rows). With SetRowsOnly an
/// operation outside the set has no row to be checked against: it gets the checks that need
/// none (operand indexes, order of writes and reads, consumer counts) and is reported
/// unsupported (as are the IF / WHILE that reach it), rather than failing the whole query as
/// preparation fails (GENERAL_FAILURE): a HAL runtime then gives it to another device, and
/// validates it with its own table.
inline Expected<std::vector<bool>> supported_operations(const Model& model, const KernelTable& kernels,
                                                        ValidationOptions options = {},
                                                        detail::SupportQuery::Filter allowed = {}) {
  if (options.extensions.empty()) options.extensions = kernels.extensions;
  if (auto v = detail::validate_model_rows(model, options, *kernels.rows, nullptr, detail::OutsideRows::CheckStructure);
      !v)
    return std::move(v.error());
  detail::SupportQuery query(model, kernels, std::move(allowed));
  return query.operations(model.main);
}

/// True when every operation of every subgraph of a valid `model` is supported (and allowed by
/// `allowed`, when given): what prepare needs. Names the first one that is not in `why`.
inline bool all_operations_supported(const Model& model, const KernelTable& kernels,
                                     detail::SupportQuery::Filter allowed, Error& why) {
  detail::SupportQuery query(model, kernels, std::move(allowed));
  // Referenced subgraphs first, so the error names the operation at fault rather than the IF
  // or WHILE that leads to it.
  for (std::size_t h = 1; h <= model.referenced.size() + 1; ++h) {
    const std::size_t g = h % (model.referenced.size() + 1);
    const Subgraph& sg = g == 0 ? model.main : model.referenced[g - 1];
    const std::vector<bool> flags = query.operations(sg);
    for (std::size_t k = 0; k < flags.size(); ++k)
      if (!flags[k]) {
        const char* name = detail::name_of_operation(kernels, model, sg.operations[k].type);
        why = g == 0 ? NNHAL_INVALID("main operation %zu (%s) is not supported by this device", k, name)
                     : NNHAL_INVALID("referenced[%zu] operation %zu (%s) is not supported by this device", g - 1,
                                     k, name);
        return false;
      }
  }
  return true;
}

}  // namespace nnhal
