#pragma once
/// \file
/// Validation of a whole untrusted Model (HAL13.md d.4, e.1-e.3, e.6). Every defect yields
/// INVALID_ARGUMENT with a message naming the subgraph, operation and operand; on success the
/// model's minimum HAL version is returned. Work is linear in the model size (plus a sort-free
/// DFS over subgraph references), and nothing is read out of bounds.

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "nnhal/core/format.hpp"
#include "nnhal/core/limits.hpp"
#include "nnhal/core/result.hpp"
#include "nnhal/model/model.hpp"
#include "nnhal/ops/registry.hpp"
#include "nnhal/util/log.hpp"
#include "nnhal/validate/operand.hpp"
#include "nnhal/validate/signature_match.hpp"
#include "nnhal/validate/slot_values.hpp"

namespace nnhal {

/// Options of model validation.
struct ValidationOptions {
  /// Accept WHILE operands of unknown size (HAL13.md d.4 rule 4): a runtime-only feature that
  /// the NNAPI runtime's own CPU executor runs (the V1_3_cts_only corpus has many such models),
  /// but that a HAL 1.3 driver must refuse with INVALID_ARGUMENT. Off by default, so
  /// validate_model, the supported-operations query, PreparedModel::prepare and the Device all
  /// hold the driver's rule unless a framework-side interpreter asks for more.
  bool allow_runtime_only = false;
  /// The vendor extensions the program registered (nnhal/interface/extension.hpp): operand
  /// and operation types from 0x10000 are valid only when the model maps their prefix to one of
  /// these that defines them. Preparation, the supported-operations query and the Device fill it
  /// from their kernel set when it is empty; on its own validate_model accepts no extension code.
  ExtensionList extensions{};
  /// Resource limits (nnhal/core/limits.hpp): counts and sizes above them are INVALID_ARGUMENT
  /// here; preparation and execution apply the rest of them.
  Limits limits{};
  /// Where validation's scratch comes from (given back when it returns): the caller's arena,
  /// or the heap (nullptr). RESOURCE_EXHAUSTED_PERSISTENT when the arena is too small.
  Arena* arena = nullptr;
};

namespace detail {

/// Names a subgraph in messages: "main" or "referenced[i]".
struct SubgraphName {
  char text[48];
  explicit SubgraphName(std::size_t index, bool is_main) noexcept {
    if (is_main) nnhal::format(text, sizeof text, "main");
    else nnhal::format(text, sizeof text, "referenced[%zu]", index);
  }
};

inline Status check_io_list(const Subgraph& sg, std::span<const std::uint32_t> list,
                            OperandLifeTime want, const char* what, Scratch<std::uint8_t>& seen) {
  for (std::size_t k = 0; k < list.size(); ++k) {
    const std::uint32_t idx = list[k];
    if (idx >= sg.operands.size())
      return NNHAL_INVALID("%s[%zu] = %" PRIu32 " is not an operand index (%zu operands)", what, k,
                           idx, sg.operands.size());
    if (sg.operands[idx].lifetime != want)
      return NNHAL_INVALID("%s[%zu]: operand %" PRIu32 " has lifetime %s, expected %s", what, k,
                           idx, to_string(sg.operands[idx].lifetime).data(),
                           to_string(want).data());
    if (seen[idx])
      return NNHAL_INVALID("%s[%zu]: operand %" PRIu32 " is listed twice", what, k, idx);
    seen[idx] = 1;
  }
  return {};
}

/// What validation found about versions, item by item (for the compliance report,
/// nnhal/validate/compliance.hpp): per operand the version it needs, per operation the version
/// of the signature it matched and the version after its rule (which may raise it).
struct SubgraphVersions {
  std::vector<HalVersion> operands;
  std::vector<HalVersion> signatures;
  std::vector<HalVersion> operations;
};

/// What validation does with an operation whose row `rows` lacks (a built-in code outside a
/// kernel set that says SetRowsOnly).
enum class OutsideRows : std::uint8_t {
  /// GENERAL_FAILURE "not in this program's kernel set" (preparation).
  Refuse,
  /// Checks only what needs no row (operand indexes in range, inputs written before they are
  /// read, outputs written once, consumer counts; an input without a value is accepted, as only
  /// the row says whether it may be omitted) and goes on: the supported-operations query, which
  /// then reports the operation unsupported.
  CheckStructure,
};

inline Expected<HalVersion> validate_subgraph(const Model& model, const Subgraph& sg, bool is_main,
                                              const ValidationOptions& options, const OperationRows& rows,
                                              SubgraphVersions* record = nullptr,
                                              OutsideRows outside = OutsideRows::Refuse) {
  HalVersion version = HalVersion::V1_0;
  if (record != nullptr) {
    record->operands.assign(sg.operands.size(), HalVersion::V1_0);
    record->signatures.assign(sg.operations.size(), HalVersion::V1_0);
    record->operations.assign(sg.operations.size(), HalVersion::V1_0);
  }
  if (sg.operands.size() > options.limits.max_operands)
    return NNHAL_INVALID("has %zu operands, above Limits::max_operands (%" PRIu32 ")",
                         sg.operands.size(), options.limits.max_operands);
  if (sg.operations.size() > options.limits.max_operations)
    return NNHAL_INVALID("has %zu operations, above Limits::max_operations (%" PRIu32 ")",
                         sg.operations.size(), options.limits.max_operations);
  if (is_main && sg.operands.empty()) return NNHAL_INVALID("has no operands");
  if (is_main && sg.operations.empty()) return NNHAL_INVALID("has no operations");

  for (std::size_t i = 0; i < sg.operands.size(); ++i) {
    auto v = validate_operand(sg.operands[i], model, options.extensions);
    if (!v) return std::move(v.error().prefix("operand %zu", i));
    if (!is_extension(sg.operands[i].type)) {
      // Validated above: the size is known to fit uint32 (or is not fully specified: 0).
      const auto bytes = operand_byte_size(sg.operands[i]);
      if (bytes && *bytes > options.limits.max_tensor_bytes)
        return NNHAL_INVALID("operand %zu: %llu bytes, above Limits::max_tensor_bytes (%llu)", i,
                             static_cast<unsigned long long>(*bytes),
                             static_cast<unsigned long long>(options.limits.max_tensor_bytes));
    }
    version = max_version(version, *v);
    if (record != nullptr) record->operands[i] = *v;
  }

  // Scratch, one byte or word per operand, from the caller's arena when it gave one.
  const Memories mem(options.arena);
  // Declared in the order they are taken, so that they go back in the reverse one (and the
  // arena has all of them back).
  Scratch<std::uint8_t> seen_in, seen_out;
  Scratch<std::uint32_t> consumers;
  Scratch<std::uint8_t> known;
  if (!seen_in.allocate(mem, sg.operands.size()) || !seen_out.allocate(mem, sg.operands.size()) ||
      !consumers.allocate(mem, sg.operands.size()) || !known.allocate(mem, sg.operands.size()))
    return mem.exhausted();
  NNHAL_TRY(check_io_list(sg, sg.inputIndexes, OperandLifeTime::SUBGRAPH_INPUT, "inputIndexes", seen_in));
  NNHAL_TRY(check_io_list(sg, sg.outputIndexes, OperandLifeTime::SUBGRAPH_OUTPUT, "outputIndexes", seen_out));
  for (std::size_t i = 0; i < sg.operands.size(); ++i) {
    const OperandLifeTime l = sg.operands[i].lifetime;
    if (l == OperandLifeTime::SUBGRAPH_INPUT && !seen_in[i])
      return NNHAL_INVALID("operand %zu is SUBGRAPH_INPUT but not listed in inputIndexes", i);
    if (l == OperandLifeTime::SUBGRAPH_OUTPUT && !seen_out[i])
      return NNHAL_INVALID("operand %zu is SUBGRAPH_OUTPUT but not listed in outputIndexes", i);
  }

  // Per operation: indexes, table signature, op-specific checks, consumer counts, order.
  for (std::size_t i = 0; i < sg.operands.size(); ++i) {
    const OperandLifeTime l = sg.operands[i].lifetime;
    known[i] = l != OperandLifeTime::TEMPORARY_VARIABLE && l != OperandLifeTime::SUBGRAPH_OUTPUT;
  }
  for (std::size_t k = 0; k < sg.operations.size(); ++k) {
    const Operation& operation = sg.operations[k];
    const OperationInfo* info = rows.find(operation.type);
    std::int32_t prefix = -1;  // the extension's prefix for an extension operation
    if (info == nullptr && is_extension(operation.type)) {
      auto found = resolve_extension_operation(model, options.extensions, operation.type);
      if (!found) return std::move(found.error().prefix("operation %zu", k));
      info = (*found)->row;
      prefix = extension_prefix(static_cast<std::int32_t>(operation.type));
    }
    if (info == nullptr && !rows.all && static_cast<std::int32_t>(operation.type) >= 0 &&
        static_cast<std::int32_t>(operation.type) < kOperationTypeCount) {
      if (outside == OutsideRows::Refuse)
        return NNHAL_FAILURE("operation %zu (%s) is not in this program's kernel set", k,
                             to_string(operation.type).data());
    } else if (info == nullptr) {
      return NNHAL_INVALID("operation %zu has invalid type %d", k, static_cast<int>(operation.type));
    }
    // From here `info` is null only for an operation outside `rows` (OutsideRows::CheckStructure).
    const char* name = info != nullptr ? info->name.data() : to_string(operation.type).data();
    for (std::size_t j = 0; j < operation.inputs.size(); ++j) {
      const std::uint32_t idx = operation.inputs[j];
      if (idx >= sg.operands.size())
        return NNHAL_INVALID("operation %zu (%s): input %zu refers to operand %" PRIu32 " of %zu",
                             k, name, j, idx, sg.operands.size());
      if (info != nullptr && sg.operands[idx].lifetime == OperandLifeTime::NO_VALUE && !input_omittable(*info, j))
        return NNHAL_INVALID("operation %zu (%s): input %zu (operand %" PRIu32
                             ") has no value but is required",
                             k, name, j, idx);
      if (!known[idx])
        return NNHAL_INVALID("operation %zu (%s): input %zu (operand %" PRIu32
                             ") is read before it is written",
                             k, name, j, idx);
      ++consumers[idx];
    }
    for (std::size_t j = 0; j < operation.outputs.size(); ++j) {
      const std::uint32_t idx = operation.outputs[j];
      if (idx >= sg.operands.size())
        return NNHAL_INVALID("operation %zu (%s): output %zu refers to operand %" PRIu32 " of %zu",
                             k, name, j, idx, sg.operands.size());
      if (known[idx])
        return NNHAL_INVALID(
            "operation %zu (%s): output %zu (operand %" PRIu32 ", %s) is already written", k,
            name, j, idx, to_string(sg.operands[idx].lifetime).data());
      known[idx] = 1;
    }
    if (info == nullptr) continue;  // no row to check it against: the caller reports it unsupported
    const OperationView view{model, sg, operation, options.allow_runtime_only};
    HalVersion op_version = info->since;
    // Control-flow rows describe their variable layout in `validate`; all others must match a
    // signature of the table first.
    if (!info->has(kOpControlFlow)) {
      auto matched = match_signature(*info, view, prefix);
      if (!matched) {
        char ins[160], outs[96];
        describe_types(view, false, ins, sizeof ins);
        describe_types(view, true, outs, sizeof outs);
        return NNHAL_INVALID("operation %zu (%s): no signature accepts inputs %s -> outputs %s", k,
                             info->name.data(), ins, outs);
      }
      op_version = *matched;
      // Closed-set scalars (fused activation, padding scheme, flags, ...) given as constants.
      if (auto s = check_slot_values(*info, view); !s)
        return std::move(s.error().prefix("operation %zu (%s)", k, info->name.data()));
    }
    if (record != nullptr) record->signatures[k] = op_version;
    if (info->validate != nullptr) {
      if (auto s = info->validate(view, op_version); !s)
        return std::move(s.error().prefix("operation %zu (%s)", k, info->name.data()));
    }
    if (prefix >= 0) op_version = max_version(op_version, HalVersion::V1_2);  // extension operation
    if (op_version > HalVersion::V1_3)
      return NNHAL_INVALID("operation %zu (%s) needs a HAL version newer than 1.3", k, info->name.data());
    version = max_version(version, op_version);
    if (record != nullptr) record->operations[k] = op_version;
  }
  for (std::size_t i = 0; i < sg.operands.size(); ++i) {
    if (!known[i]) return NNHAL_INVALID("operand %zu is never written", i);
    if (sg.operands[i].numberOfConsumers != consumers[i])
      return NNHAL_INVALID("operand %zu: numberOfConsumers is %" PRIu32 " but %" PRIu32
                           " operation inputs read it",
                           i, sg.operands[i].numberOfConsumers, consumers[i]);
  }
  return version;
}

/// The order of extension map entries by one key (name or prefix).
using ExtensionEntryLess = bool (*)(const ExtensionNameAndPrefix& a, const ExtensionNameAndPrefix& b);

/// For each entry of `map`, the index of the first entry with the same key (itself when it is the
/// first): sorting by (key, index), O(n log n), so that an untrusted map of any length is checked
/// in bounded time. The key's order is a function pointer, so both keys share one std::sort.
/// `first` has map.size() elements; scratch comes from `mem`.
inline Status first_with_same_key(std::span<const ExtensionNameAndPrefix> map, ExtensionEntryLess less,
                                  const Memories& mem, Scratch<std::uint32_t>& first) {
  Scratch<std::uint32_t> order;
  if (!order.allocate(mem, map.size())) return mem.exhausted();
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  struct ByKeyThenIndex {
    const ExtensionNameAndPrefix* map;
    ExtensionEntryLess less;
    bool operator()(std::uint32_t a, std::uint32_t b) const {
      return less(map[a], map[b]) || (!less(map[b], map[a]) && a < b);
    }
  };
  std::sort(order.begin(), order.end(), ByKeyThenIndex{map.data(), less});
  for (std::size_t k = 0; k < order.size(); ++k)
    first[order[k]] = k != 0 && !less(map[order[k - 1]], map[order[k]]) ? first[order[k - 1]] : order[k];
  return {};
}

/// Checks the model's extension map (HAL13.md e.1.8): valid names, unique names, unique
/// prefixes, each prefix below 32768. Reports the first entry in order that breaks a rule.
inline Status check_extension_map(const Model& model, const Limits& limits = {}, const Memories& mem = {}) {
  const auto& map = model.extensionNameToPrefix;
  if (map.empty()) return {};
  if (map.size() > limits.max_extension_entries)
    return NNHAL_INVALID(
        "extensionNameToPrefix has %zu entries, above Limits::max_extension_entries (%" PRIu32 ")",
        map.size(), limits.max_extension_entries);
  Scratch<std::uint32_t> same_name, same_prefix;
  if (!same_name.allocate(mem, map.size()) || !same_prefix.allocate(mem, map.size())) return mem.exhausted();
  NNHAL_TRY(first_with_same_key(
      map, [](const ExtensionNameAndPrefix& a, const ExtensionNameAndPrefix& b) { return a.name < b.name; }, mem,
      same_name));
  NNHAL_TRY(first_with_same_key(
      map, [](const ExtensionNameAndPrefix& a, const ExtensionNameAndPrefix& b) { return a.prefix < b.prefix; }, mem,
      same_prefix));
  for (std::size_t i = 0; i < map.size(); ++i) {
    const ExtensionNameAndPrefix& e = map[i];
    if (!is_valid_extension_name(e.name))
      return NNHAL_INVALID("extensionNameToPrefix[%zu]: \"%s\" is not a valid extension name (lowercase "
                           "letters, digits, '.' and '_', with at least one '.')",
                           i, e.name.c_str());
    if (e.prefix > kMaxExtensionPrefix)
      return NNHAL_INVALID("extensionNameToPrefix[%zu] (%s): prefix %u is above %" PRIu32, i,
                           e.name.c_str(), e.prefix, kMaxExtensionPrefix);
    // The earliest entry sharing the name or the prefix, as a scan of the entries before i finds it.
    const std::size_t by_name = same_name[i], by_prefix = same_prefix[i];
    if (by_name != i && (by_prefix == i || by_name <= by_prefix))
      return NNHAL_INVALID("extensionNameToPrefix[%zu]: name %s is also entry %zu", i, e.name.c_str(), by_name);
    if (by_prefix != i)
      return NNHAL_INVALID("extensionNameToPrefix[%zu] (%s): prefix %u is also the prefix of %s", i,
                           e.name.c_str(), e.prefix, map[by_prefix].name.c_str());
  }
  return {};
}

/// Rejects cycles among subgraph references (iterative DFS: no recursion on untrusted depth).
inline Status check_reference_cycles(const Model& model, const Memories& mem = {}) {
  const std::size_t n = model.referenced.size();
  if (n == 0) return {};
  enum : std::uint8_t { kWhite, kGrey, kBlack };
  struct Frame {
    std::size_t graph;
    std::size_t next_operand;
  };
  // At most one frame per subgraph (only white subgraphs are pushed, and they turn grey).
  Scratch<std::uint8_t> color;  // zeroed: kWhite
  Scratch<Frame> stack;
  if (!color.allocate(mem, n) || !stack.allocate(mem, n)) return mem.exhausted();
  std::size_t depth = 0;
  for (std::size_t root = 0; root < n; ++root) {
    if (color[root] != kWhite) continue;
    stack[depth++] = {root, 0};
    color[root] = kGrey;
    while (depth != 0) {
      Frame& f = stack[depth - 1];
      const auto& ops = model.referenced[f.graph].operands;
      bool descended = false;
      while (f.next_operand < ops.size()) {
        const Operand& op = ops[f.next_operand++];
        if (op.lifetime != OperandLifeTime::SUBGRAPH) continue;
        const std::size_t to = op.location.offset;  // bounds checked by operand validation
        if (color[to] == kGrey)
          return NNHAL_INVALID("referenced[%zu] is part of a subgraph reference cycle", to);
        if (color[to] == kWhite) {
          color[to] = kGrey;
          stack[depth++] = {to, 0};
          descended = true;
          break;
        }
      }
      if (!descended) color[stack[--depth].graph] = kBlack;
    }
  }
  return {};
}

}  // namespace detail

/// Longest chain of nested IF/WHILE references starting at any subgraph (main = 0 deep), by an
/// iterative post-order walk (no recursion on untrusted depth), linear in the operands. The
/// model's references must be in range and acyclic (validate_model checks both first).
/// The HAL sets no bound on nesting, so validate_model accepts any depth; preparation holds it
/// to Limits::max_control_flow_depth (check_control_flow_depth).
/// With its scratch from `mem`: RESOURCE_EXHAUSTED_PERSISTENT when an arena is too small.
inline Expected<std::size_t> control_flow_depth(const Model& model, const Memories& mem) {
  const std::size_t n = model.referenced.size();
  struct Frame {
    std::size_t graph, next;
  };
  // Each subgraph is on the stack at most once at a time (the references are acyclic), and main
  // once more.
  Scratch<std::size_t> depth;
  Scratch<std::uint8_t> done;
  Scratch<Frame> stack;
  if (!depth.allocate(mem, n) || !done.allocate(mem, n) || !stack.allocate(mem, n + 1)) return mem.exhausted();
  std::size_t top = 0;
  auto refs_of = [&](std::size_t g) -> const Vector<Operand>& {
    return g == n ? model.main.operands : model.referenced[g].operands;
  };
  std::size_t main_depth = 0;
  for (std::size_t root = 0; root <= n; ++root) {
    if (root < n && done[root]) continue;
    stack[top++] = {root, 0};
    while (top != 0) {
      Frame& f = stack[top - 1];
      const auto& operands = refs_of(f.graph);
      bool descended = false;
      while (f.next < operands.size()) {
        const Operand& op = operands[f.next++];
        if (op.lifetime == OperandLifeTime::SUBGRAPH && !done[op.location.offset]) {
          stack[top++] = {op.location.offset, 0};
          descended = true;
          break;
        }
      }
      if (descended) continue;
      std::size_t d = 0;
      for (const Operand& op : operands)
        if (op.lifetime == OperandLifeTime::SUBGRAPH) d = std::max(d, depth[op.location.offset] + 1);
      if (f.graph == n) main_depth = d;
      else {
        depth[f.graph] = d;
        done[f.graph] = 1;
      }
      --top;
    }
  }
  std::size_t deepest = main_depth;
  for (std::size_t d : depth) deepest = std::max(deepest, d);
  return deepest;
}

inline std::size_t control_flow_depth(const Model& model) {
  // From the heap, which does not run out (there is no error to return here).
  return *control_flow_depth(model, Memories{});
}

/// Limits::max_control_flow_depth, capped at NNHAL_MAX_CONTROL_FLOW_DEPTH (the executor
/// recurses once per nesting level: the macro bounds its stack). INVALID_ARGUMENT above it: the
/// driver does not accept the model. `model` must have passed validate_model.
/// Its scratch comes from `mem` (RESOURCE_EXHAUSTED_PERSISTENT when an arena is too small).
inline Status check_control_flow_depth(const Model& model, const Limits& limits, const Memories& mem = {}) {
  const std::size_t max_depth = std::min<std::size_t>(limits.max_control_flow_depth, NNHAL_MAX_CONTROL_FLOW_DEPTH);
  if (model.referenced.empty()) return {};
  auto depth = control_flow_depth(model, mem);
  if (!depth) return std::move(depth.error());
  if (*depth > max_depth)
    return NNHAL_INVALID("control flow is nested %zu deep, above Limits::max_control_flow_depth (%zu)", *depth,
                         max_depth);
  return {};
}

namespace detail {
/// validate_model reading the rows `rows` (preparation passes its kernel set's); `outside`
/// says what an operation without a row there gets.
inline Expected<HalVersion> validate_model_rows(const Model& model, const ValidationOptions& options,
                                                const OperationRows& rows,
                                                std::vector<detail::SubgraphVersions>* record = nullptr,
                                                OutsideRows outside = OutsideRows::Refuse) {
  HalVersion version = HalVersion::V1_0;
  const Limits& limits = options.limits;
  if (model.referenced.size() > limits.max_referenced_subgraphs) {
    auto e = NNHAL_INVALID(
        "the model has %zu referenced subgraphs, above Limits::max_referenced_subgraphs (%" PRIu32
        ")",
        model.referenced.size(), limits.max_referenced_subgraphs);
    NNHAL_VLOG(validate, "model rejected: %s", e.c_str());
    return e;
  }
  if (record != nullptr) record->assign(1 + model.referenced.size(), {});
  if (auto s = detail::check_extension_map(model, limits, Memories(options.arena)); !s) {
    NNHAL_VLOG(validate, "model rejected: %s", s.error().c_str());
    return std::move(s.error());
  }
  if (!model.extensionNameToPrefix.empty()) version = HalVersion::V1_2;
  for (std::size_t g = 0; g <= model.referenced.size(); ++g) {
    const bool is_main = g == 0;
    const Subgraph& sg = is_main ? model.main : model.referenced[g - 1];
    auto v = detail::validate_subgraph(model, sg, is_main, options, rows, record != nullptr ? &(*record)[g] : nullptr,
                                       outside);
    if (!v) {
      v.error().prefix("%s", detail::SubgraphName(g - 1, is_main).text);
      NNHAL_VLOG(validate, "model rejected: %s", v.error().c_str());
      return std::move(v.error());
    }
    version = max_version(version, *v);
  }
  if (!model.referenced.empty()) version = max_version(version, HalVersion::V1_3);
  if (auto s = detail::check_reference_cycles(model, Memories(options.arena)); !s) {
    NNHAL_VLOG(validate, "model rejected: %s", s.error().c_str());
    return std::move(s.error());
  }
  NNHAL_VLOG(validate, "model valid: HAL %s, %zu operation(s) in main, %zu referenced subgraph(s)",
             to_string(version).data(), model.main.operations.size(), model.referenced.size());
  return version;
}
}  // namespace detail

/// Validates `model` completely. Returns its minimum HAL version (never above 1.3), or
/// INVALID_ARGUMENT naming the first defect found.
/// `record`, when given, receives the versions item by item, one entry per subgraph (0 = main).
inline Expected<HalVersion> validate_model(const Model& model, const ValidationOptions& options = {},
                                           std::vector<detail::SubgraphVersions>* record = nullptr) {
  return detail::validate_model_rows(model, options, all_operation_rows(), record);
}

}  // namespace nnhal
