#pragma once
/// \file
/// HAL version compliance, as the Android runtime's compliance checks use it: the lowest HAL
/// version a valid model complies with; for an older version, every operand and operation that
/// needs a newer one and why; and, for partitioning a model between drivers of different HAL
/// versions, the version each operation of the main subgraph needs (with what it reads and
/// writes, and for IF / WHILE everything they reference).
///
///     auto report = check_compliance(model);
///     if (report && !report->complies_with(HalVersion::V1_1))
///       for (const VersionReason* r : report->above(HalVersion::V1_1)) log(r->message);
///
/// The versions are the ones validation derives (nnhal/validate/model.hpp): an operand needs its
/// type's version (1.2 when its rank is unknown); an operation the oldest signature of its row
/// that accepts its operand types, raised by the operation's own rule where a parameter needs a
/// newer version; referenced subgraphs (IF / WHILE) need 1.3. Not for the execution path: it
/// allocates.

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "nnhal/core/format.hpp"
#include "nnhal/core/operand_traits.hpp"
#include "nnhal/core/result.hpp"
#include "nnhal/model/model.hpp"
#include "nnhal/ops/registry.hpp"
#include "nnhal/validate/model.hpp"

namespace nnhal {

/// One operand or operation that needs a HAL version newer than 1.0, and why.
struct VersionReason {
  enum class Kind : std::uint8_t {
    Operand,    ///< `index` is an operand of subgraph `subgraph`
    Operation,  ///< `index` is an operation of subgraph `subgraph`
    Subgraphs,  ///< the model has referenced subgraphs (control flow)
    Extensions,  ///< the model maps extension names to prefixes (extensionNameToPrefix)
  };
  Kind kind = Kind::Operand;
  HalVersion version = HalVersion::V1_0;
  std::uint32_t subgraph = 0;  ///< 0 = main, 1 + i = referenced[i]
  std::uint32_t index = 0;
  /// E.g. "main operation 2 (ABS) needs HAL 1.2: ABS exists since HAL 1.2".
  std::string message;
};

/// The compliance of one valid model.
struct ComplianceReport {
  /// The lowest HAL version the model complies with (what validate_model returns).
  HalVersion minimum = HalVersion::V1_0;
  /// Per operation of the main subgraph: the version a driver must implement to run it alone,
  /// with the operands it reads and writes (IF / WHILE: 1.3, and everything they reference).
  std::vector<HalVersion> main_operations;
  /// Every operand and operation that needs more than HAL 1.0, newest version first, then in
  /// subgraph and index order.
  std::vector<VersionReason> reasons;

  bool complies_with(HalVersion v) const noexcept { return minimum <= v; }
  /// The reasons the model does not comply with `v` (empty when it does).
  std::vector<const VersionReason*> above(HalVersion v) const {
    std::vector<const VersionReason*> r;
    for (const VersionReason& reason : reasons)
      if (reason.version > v) r.push_back(&reason);
    return r;
  }
  /// Indexes of the main subgraph's operations that `v` cannot run (AOSP's
  /// compliantWithV1_x noncompliant-operations set).
  std::vector<std::uint32_t> noncompliant_operations(HalVersion v) const {
    std::vector<std::uint32_t> r;
    for (std::size_t k = 0; k < main_operations.size(); ++k)
      if (main_operations[k] > v) r.push_back(static_cast<std::uint32_t>(k));
    return r;
  }
};

namespace detail {

inline std::string subgraph_label(std::size_t g) {
  if (g == 0) return "main";
  return "referenced[" + std::to_string(g - 1) + "]";
}

inline std::string version_label(HalVersion v) { return std::string("HAL ") + std::string(to_string(v)); }

/// Why operand `op` needs `v` (> 1.0).
inline std::string operand_reason(const Operand& op, HalVersion v) {
  if (is_fundamental(op.type) && info(op.type).since == v)
    return std::string(to_string(op.type)) + " exists since " + version_label(v);
  if (is_extension(op.type)) return "extension operand types exist since " + version_label(HalVersion::V1_2);
  if (is_tensor(op.type) && op.dimensions.empty()) return "a tensor of unknown rank needs " + version_label(v);
  return "its use needs " + version_label(v);
}

/// Why operation `operation` needs `v` (> 1.0): the row's first version, the matched signature
/// (`signature`), or the operation's rule.
inline std::string operation_reason(const Model& model, const Subgraph& sg, const Operation& operation,
                                    HalVersion signature, HalVersion v) {
  const OperationInfo* row = find_operation(operation.type);
  const std::string name(to_string(operation.type));
  if (is_extension(operation.type)) {
    char code[48];
    nnhal::format(code, sizeof code, "extension operation 0x%x", static_cast<unsigned>(operation.type));
    if (v == HalVersion::V1_2) return std::string(code) + ": extensions exist since " + version_label(v);
    return std::string(code) + ": its row needs " + version_label(v);
  }
  if (row == nullptr) return name + " needs " + version_label(v);
  if (operation.type == OperationType::IF || operation.type == OperationType::WHILE)
    return "control flow (" + name + ") exists since " + version_label(v);
  if (signature == v && row->since == v) return name + " exists since " + version_label(v);
  if (signature == v) {
    const OperationView view{model, sg, operation, true};
    char ins[160], outs[96];
    describe_types(view, false, ins, sizeof ins);
    describe_types(view, true, outs, sizeof outs);
    return name + " with inputs " + ins + " -> outputs " + outs + " exists since " + version_label(v);
  }
  return name + ": a parameter of this use (the operation's rule) needs " + version_label(v);
}

}  // namespace detail

/// Validates `model` (INVALID_ARGUMENT as validate_model) and reports its compliance.
inline Expected<ComplianceReport> check_compliance(const Model& model, const ValidationOptions& options = {}) {
  std::vector<detail::SubgraphVersions> found;
  auto minimum = validate_model(model, options, &found);
  if (!minimum) return std::move(minimum.error());
  ComplianceReport report;
  report.minimum = *minimum;

  // The version each subgraph needs as a whole, referenced ones included: a fixed point over
  // the references (validation rejected cycles, so `graphs` passes suffice).
  const std::size_t graphs = 1 + model.referenced.size();
  auto subgraph_of = [&](std::size_t g) -> const Subgraph& { return g == 0 ? model.main : model.referenced[g - 1]; };
  std::vector<HalVersion> whole(graphs, HalVersion::V1_0);
  for (std::size_t g = 0; g < graphs; ++g) {
    for (HalVersion v : found[g].operands) whole[g] = max_version(whole[g], v);
    for (HalVersion v : found[g].operations) whole[g] = max_version(whole[g], v);
  }
  for (std::size_t pass = 0; pass < graphs; ++pass)
    for (std::size_t g = 0; g < graphs; ++g)
      for (const Operand& op : subgraph_of(g).operands)
        if (op.lifetime == OperandLifeTime::SUBGRAPH && op.location.offset + 1 < graphs)
          whole[g] = max_version(whole[g], whole[op.location.offset + 1]);

  // Per main operation: its own version, its operands', and for control flow the subgraphs it
  // references (with everything they reference).
  const Subgraph& main = model.main;
  report.main_operations.resize(main.operations.size());
  for (std::size_t k = 0; k < main.operations.size(); ++k) {
    const Operation& operation = main.operations[k];
    HalVersion v = found[0].operations[k];
    for (const auto* list : {&operation.inputs, &operation.outputs})
      for (std::uint32_t i : *list) {
        v = max_version(v, found[0].operands[i]);
        const Operand& op = main.operands[i];
        if (op.lifetime == OperandLifeTime::SUBGRAPH) v = max_version(v, whole[op.location.offset + 1]);
      }
    report.main_operations[k] = v;
  }

  // The reasons.
  auto add = [&](VersionReason::Kind kind, HalVersion v, std::size_t g, std::size_t index, std::string message) {
    report.reasons.push_back({kind, v, static_cast<std::uint32_t>(g), static_cast<std::uint32_t>(index), std::move(message)});
  };
  if (!model.referenced.empty())
    add(VersionReason::Kind::Subgraphs, HalVersion::V1_3, 0, 0,
        "the model has " + std::to_string(model.referenced.size()) +
            " referenced subgraph(s) (control flow), which exist since HAL 1.3");
  if (!model.extensionNameToPrefix.empty())
    add(VersionReason::Kind::Extensions, HalVersion::V1_2, 0, 0,
        "the model maps " + std::to_string(model.extensionNameToPrefix.size()) +
            " extension name(s) to prefixes (extensionNameToPrefix), which exist since HAL 1.2");
  for (std::size_t g = 0; g < graphs; ++g) {
    const Subgraph& sg = subgraph_of(g);
    // "<subgraph> <what> <i> (<NAME>) needs HAL 1.x: "
    auto head = [&](const char* what, std::size_t i, std::string_view name, HalVersion v) {
      return detail::subgraph_label(g) + " " + what + " " + std::to_string(i) + " (" + std::string(name) + ") needs " +
             detail::version_label(v) + ": ";
    };
    for (std::size_t i = 0; i < sg.operands.size(); ++i) {
      const HalVersion v = found[g].operands[i];
      if (v != HalVersion::V1_0)
        add(VersionReason::Kind::Operand, v, g, i,
            head("operand", i, to_string(sg.operands[i].type), v) + detail::operand_reason(sg.operands[i], v));
    }
    for (std::size_t k = 0; k < sg.operations.size(); ++k) {
      const HalVersion v = found[g].operations[k];
      const Operation& operation = sg.operations[k];
      if (v != HalVersion::V1_0)
        add(VersionReason::Kind::Operation, v, g, k,
            head("operation", k, to_string(operation.type), v) +
                detail::operation_reason(model, sg, operation, found[g].signatures[k], v));
    }
  }
  // Newest first; the order above within a version (stable).
  std::stable_sort(report.reasons.begin(), report.reasons.end(),
                   [](const VersionReason& a, const VersionReason& b) { return a.version > b.version; });
  return report;
}

/// Whether `model` complies with HAL version `target`: success, or INVALID_ARGUMENT whose
/// message names the first operand or operation that needs a newer version and why (or the
/// validation error of an invalid model).
inline Status check_complies_with(const Model& model, HalVersion target, const ValidationOptions& options = {}) {
  auto report = check_compliance(model, options);
  if (!report) return std::move(report.error());
  const auto above = report->above(target);
  if (above.empty()) return {};
  return NNHAL_INVALID("the model needs %s, not %s: %s%s", detail::version_label(report->minimum).c_str(),
                       detail::version_label(target).c_str(), above.front()->message.c_str(),
                       above.size() > 1 ? " (and more)" : "");
}

}  // namespace nnhal
