#pragma once
/// \file
/// A model as a Graphviz graph (DOT language), for debugging models one did not write.
///
/// The main subgraph and every referenced subgraph are clusters. Operands are ellipses labelled
/// with their index, type, shape (`?` for an unknown dimension, `[*]` for an unknown rank) and
/// quantization; constants are grey boxes, subgraph inputs green, outputs blue (shape
/// `doubleoctagon`). Operations are boxes with their index and name; edges carry the operand's
/// slot. IF and WHILE have dashed edges to the clusters of the subgraphs they call, labelled with
/// the role (then/else, cond/body).
///
/// The model need not be valid: an index out of range is drawn as a red "bad operand" node
/// instead of being followed, so a malformed model still gives a picture. The text goes to a
/// caller's sink, `void(std::string_view)` (no iostream); to_dot() collects it in a string.
///
///     std::string text = nnhal::to_dot(model);                 // whole graph
///     nnhal::write_dot(model, [&](std::string_view s) { fwrite(s.data(), 1, s.size(), f); });

#include <cinttypes>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <type_traits>

#include "nnhal/core/enums.hpp"
#include "nnhal/core/operand_traits.hpp"
#include "nnhal/model/model.hpp"

namespace nnhal {

namespace dot_detail {

/// Writes to the sink through a small formatting buffer.
template <class Sink>
class Writer {
 public:
  explicit Writer(Sink& sink) : sink_(sink) {}

  void put(std::string_view s) { sink_(s); }

  /// printf-style formatting of one piece (truncated at 255 characters); a C variadic so that
  /// the compiler checks the arguments against the format.
  [[gnu::format(printf, 2, 3)]] void fmt(const char* format, ...) {
    char buf[256];
    va_list args;
    va_start(args, format);
    const int n = std::vsnprintf(buf, sizeof buf, format, args);
    va_end(args);
    if (n > 0) put(std::string_view(buf, static_cast<std::size_t>(n) < sizeof buf ? static_cast<std::size_t>(n) : sizeof buf - 1));
  }

  /// A DOT string's characters, with quotes and backslashes escaped.
  void escaped(std::string_view s) {
    std::size_t start = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (s[i] != '"' && s[i] != '\\') continue;
      put(s.substr(start, i - start));
      put(s[i] == '"' ? "\\\"" : "\\\\");
      start = i + 1;
    }
    put(s.substr(start));
  }

 private:
  Sink& sink_;
};

/// The fill colour of an operand node by lifetime.
inline const char* operand_style(OperandLifeTime lifetime) noexcept {
  switch (lifetime) {
    case OperandLifeTime::CONSTANT_COPY:
    case OperandLifeTime::CONSTANT_REFERENCE:
      return "shape=box, style=filled, fillcolor=\"#dddddd\"";
    case OperandLifeTime::SUBGRAPH_INPUT:
      return "shape=ellipse, style=filled, fillcolor=\"#c8f0c8\"";
    case OperandLifeTime::SUBGRAPH_OUTPUT:
      return "shape=doubleoctagon, style=filled, fillcolor=\"#c8dcf8\"";
    case OperandLifeTime::NO_VALUE:
      return "shape=ellipse, style=dashed";
    case OperandLifeTime::SUBGRAPH:
      return "shape=component";
    default:
      return "shape=ellipse";
  }
}

/// Node name of operand `i` of subgraph `g`: g<g>_o<i>.
template <class Sink>
void operand_name(Writer<Sink>& w, std::size_t g, std::size_t i) {
  w.fmt("g%zu_o%zu", g, i);
}

/// One operand node.
template <class Sink>
void operand_node(Writer<Sink>& w, std::size_t g, std::size_t i, const Operand& op) {
  w.put("    ");
  operand_name(w, g, i);
  w.fmt(" [%s, label=\"#%zu ", operand_style(op.lifetime), i);
  w.escaped(to_string(op.type));
  if (is_tensor(op.type)) {
    if (op.dimensions.empty()) {
      w.put(" [*]");
    } else {
      w.put(" [");
      for (std::size_t d = 0; d < op.dimensions.size(); ++d) {
        if (d != 0) w.put(",");
        if (op.dimensions[d] == 0) w.put("?");
        else w.fmt("%" PRIu32, op.dimensions[d]);
      }
      w.put("]");
    }
  }
  if (op.scale != 0.0f || op.zeroPoint != 0)
    w.fmt("\\nscale=%g zp=%" PRId32, static_cast<double>(op.scale), op.zeroPoint);
  if (op.channelQuant.has_value())
    w.fmt("\\nper-channel: %zu scales, dim %" PRIu32, op.channelQuant->scales.size(),
          op.channelQuant->channelDim);
  if (op.lifetime == OperandLifeTime::SUBGRAPH) {
    w.fmt("\\nsubgraph %" PRIu32, op.location.offset + 1);
  } else if (op.lifetime == OperandLifeTime::CONSTANT_COPY || op.lifetime == OperandLifeTime::CONSTANT_REFERENCE) {
    w.put("\\n");
    w.escaped(to_string(op.lifetime));
    w.fmt(" (%" PRIu32 " bytes)", op.location.length);
  } else if (op.lifetime == OperandLifeTime::NO_VALUE) {
    w.put("\\nno value");
  }
  w.put("\"];\n");
}

/// The cluster of subgraph `g` (0 is main; referenced subgraph r is g = r + 1).
template <class Sink>
void subgraph_cluster(Writer<Sink>& w, const Model& model, std::size_t g, const Subgraph& sg) {
  w.fmt("  subgraph cluster_%zu {\n", g);
  if (g == 0) w.put("    label=\"main\";\n");
  else w.fmt("    label=\"subgraph %zu (referenced[%zu])\";\n", g, g - 1);
  w.put("    style=rounded;\n");
  // An invisible anchor that edges from IF/WHILE point at (with lhead=cluster_g).
  w.fmt("    g%zu_anchor [shape=point, style=invis];\n", g);
  for (std::size_t i = 0; i < sg.operands.size(); ++i) operand_node(w, g, i, sg.operands[i]);

  bool bad = false;  // one shared node for every out-of-range operand index
  auto edge_operand = [&](std::uint32_t index) {
    if (index < sg.operands.size()) {
      operand_name(w, g, index);
    } else {
      bad = true;
      w.fmt("g%zu_bad", g);
    }
  };
  for (std::size_t k = 0; k < sg.operations.size(); ++k) {
    const Operation& op = sg.operations[k];
    const auto code = static_cast<std::int32_t>(op.type);
    const bool known = code >= 0 && code < kOperationTypeCount;
    w.fmt("    g%zu_op%zu [shape=box, style=\"filled,bold\", fillcolor=\"#fff2cc\", label=\"#%zu ", g, k, k);
    if (known) w.escaped(to_string(op.type));
    else w.fmt("unknown operation %" PRId32, code);
    w.put("\"];\n");
    for (std::size_t s = 0; s < op.inputs.size(); ++s) {
      w.put("    ");
      edge_operand(op.inputs[s]);
      w.fmt(" -> g%zu_op%zu [label=\"%zu\"];\n", g, k, s);
    }
    for (std::size_t s = 0; s < op.outputs.size(); ++s) {
      w.fmt("    g%zu_op%zu -> ", g, k);
      edge_operand(op.outputs[s]);
      w.fmt(" [label=\"%zu\"];\n", s);
    }
  }
  if (bad) w.fmt("    g%zu_bad [shape=octagon, style=filled, fillcolor=\"#f4b6b6\", label=\"bad operand index\"];\n", g);
  w.put("  }\n");
  (void)model;
}

/// Dashed edges from each IF / WHILE of subgraph `g` to the clusters it calls.
template <class Sink>
void control_flow_edges(Writer<Sink>& w, const Model& model, std::size_t g, const Subgraph& sg) {
  for (std::size_t k = 0; k < sg.operations.size(); ++k) {
    const Operation& op = sg.operations[k];
    const bool is_if = op.type == OperationType::IF, is_while = op.type == OperationType::WHILE;
    if (!is_if && !is_while) continue;
    // IF: inputs 1 and 2 are the then/else branches; WHILE: inputs 0 and 1 are cond/body.
    const std::size_t first = is_if ? 1 : 0;
    const char* roles[2] = {is_if ? "then" : "cond", is_if ? "else" : "body"};
    for (std::size_t r = 0; r < 2; ++r) {
      const std::size_t slot = first + r;
      if (slot >= op.inputs.size() || op.inputs[slot] >= sg.operands.size()) continue;
      const Operand& ref = sg.operands[op.inputs[slot]];
      if (ref.lifetime != OperandLifeTime::SUBGRAPH || ref.location.offset >= model.referenced.size()) continue;
      const std::size_t target = std::size_t{ref.location.offset} + 1;
      w.fmt("  g%zu_op%zu -> g%zu_anchor [lhead=cluster_%zu, style=dashed, color=\"#7f7f7f\", label=\"%s\"];\n", g, k,
            target, target, roles[r]);
    }
  }
}

}  // namespace dot_detail

/// Writes `model` as a DOT digraph to `sink` (called with pieces of text, in order).
template <class Sink>
void write_dot(const Model& model, Sink&& sink) {
  dot_detail::Writer<std::remove_reference_t<Sink>> w(sink);
  w.put("digraph model {\n  compound=true;\n  rankdir=TB;\n  node [fontname=\"Helvetica\", fontsize=10];\n"
        "  edge [fontname=\"Helvetica\", fontsize=9];\n");
  if (model.relaxComputationFloat32toFloat16) w.put("  label=\"relaxed float32 computation\";\n");
  dot_detail::subgraph_cluster(w, model, 0, model.main);
  for (std::size_t r = 0; r < model.referenced.size(); ++r)
    dot_detail::subgraph_cluster(w, model, r + 1, model.referenced[r]);
  dot_detail::control_flow_edges(w, model, 0, model.main);
  for (std::size_t r = 0; r < model.referenced.size(); ++r)
    dot_detail::control_flow_edges(w, model, r + 1, model.referenced[r]);
  w.put("}\n");
}

/// `model` as DOT text.
inline std::string to_dot(const Model& model) {
  std::string out;
  write_dot(model, [&out](std::string_view s) { out.append(s); });
  return out;
}

}  // namespace nnhal
