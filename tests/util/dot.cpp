// nnhal::write_dot / to_dot (include/nnhal/util/dot.hpp): every subgraph a cluster, operands and
// operations with their labels, IF / WHILE edges to the subgraphs they call, and a malformed
// model drawn without reading out of bounds.
#include <doctest/doctest.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "nnhal/util/dot.hpp"

using nnhal::Model;
using nnhal::Operand;
using nnhal::OperandLifeTime;
using nnhal::OperandType;
using nnhal::OperationType;

namespace {

std::size_t count(const std::string& text, std::string_view what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

Operand tensor(OperandType type, nnhal::Vector<std::uint32_t> dims, OperandLifeTime lifetime) {
  Operand o;
  o.type = type;
  o.dimensions = std::move(dims);
  o.lifetime = lifetime;
  return o;
}

/// main: x -> IF(c, then=1, else=2) -> y; both branches pass their input through ADD with 0.
Model if_model() {
  Model m;
  auto branch = [] {
    nnhal::Subgraph sg;
    sg.operands = {tensor(OperandType::TENSOR_FLOAT32, {2}, OperandLifeTime::SUBGRAPH_INPUT),
                   tensor(OperandType::TENSOR_FLOAT32, {2}, OperandLifeTime::CONSTANT_COPY),
                   tensor(OperandType::INT32, {}, OperandLifeTime::CONSTANT_COPY),
                   tensor(OperandType::TENSOR_FLOAT32, {2}, OperandLifeTime::SUBGRAPH_OUTPUT)};
    sg.operations = {{OperationType::ADD, {0, 1, 2}, {3}}};
    sg.inputIndexes = {0};
    sg.outputIndexes = {3};
    return sg;
  };
  m.referenced = {branch(), branch()};
  Operand then_ref = tensor(OperandType::SUBGRAPH, {}, OperandLifeTime::SUBGRAPH);
  then_ref.location.offset = 0;
  Operand else_ref = then_ref;
  else_ref.location.offset = 1;
  Operand q = tensor(OperandType::TENSOR_QUANT8_ASYMM, {1, 0}, OperandLifeTime::TEMPORARY_VARIABLE);
  q.scale = 0.5f;
  q.zeroPoint = 128;
  m.main.operands = {tensor(OperandType::TENSOR_BOOL8, {1}, OperandLifeTime::SUBGRAPH_INPUT), then_ref, else_ref,
                     tensor(OperandType::TENSOR_FLOAT32, {2}, OperandLifeTime::SUBGRAPH_INPUT),
                     tensor(OperandType::TENSOR_FLOAT32, {}, OperandLifeTime::SUBGRAPH_OUTPUT), q};
  m.main.operations = {{OperationType::IF, {0, 1, 2, 3}, {4}}};
  m.main.inputIndexes = {0, 3};
  m.main.outputIndexes = {4};
  return m;
}

}  // namespace

TEST_CASE("to_dot: clusters, operands, operations and IF edges") {
  const std::string dot = nnhal::to_dot(if_model());
  CHECK(dot.rfind("digraph model {", 0) == 0);
  CHECK(dot.back() == '\n');
  CHECK(count(dot, "subgraph cluster_") == 3);  // main and two branches
  CHECK(count(dot, "label=\"main\"") == 1);
  CHECK(dot.find("subgraph cluster_1") != std::string::npos);
  // One node per operand and operation of every subgraph.
  CHECK(count(dot, "g0_o") >= 6);
  CHECK(dot.find("g0_op0 [") != std::string::npos);
  CHECK(dot.find("label=\"#0 IF\"") != std::string::npos);
  CHECK(count(dot, "label=\"#0 ADD\"") == 2);
  // Operand labels: type, shape (? for an unknown dimension, [*] for unknown rank), quantization.
  CHECK(dot.find("#3 TENSOR_FLOAT32 [2]") != std::string::npos);
  CHECK(dot.find("#4 TENSOR_FLOAT32 [*]") != std::string::npos);
  CHECK(dot.find("#5 TENSOR_QUANT8_ASYMM [1,?]\\nscale=0.5 zp=128") != std::string::npos);
  CHECK(dot.find("subgraph 1") != std::string::npos);  // the then-branch reference operand
  CHECK(dot.find("CONSTANT_COPY") != std::string::npos);
  // Input edges carry the slot; the IF calls both branches.
  CHECK(dot.find("g0_o3 -> g0_op0 [label=\"3\"]") != std::string::npos);
  CHECK(dot.find("g0_op0 -> g0_o4 [label=\"0\"]") != std::string::npos);
  CHECK(dot.find("g0_op0 -> g1_anchor [lhead=cluster_1") != std::string::npos);
  CHECK(dot.find("g0_op0 -> g2_anchor [lhead=cluster_2") != std::string::npos);
  CHECK(dot.find("label=\"then\"") != std::string::npos);
  CHECK(dot.find("label=\"else\"") != std::string::npos);
  // Braces balance.
  CHECK(count(dot, "{") == count(dot, "}"));
}

TEST_CASE("to_dot: WHILE edges are labelled cond and body") {
  Model m = if_model();
  m.main.operations[0] = {OperationType::WHILE, {1, 2, 3}, {4}};
  const std::string dot = nnhal::to_dot(m);
  CHECK(dot.find("label=\"#0 WHILE\"") != std::string::npos);
  CHECK(dot.find("g0_op0 -> g1_anchor [lhead=cluster_1, style=dashed, color=\"#7f7f7f\", label=\"cond\"]") !=
        std::string::npos);
  CHECK(dot.find("label=\"body\"") != std::string::npos);
}

TEST_CASE("write_dot: a malformed model is drawn without following bad indexes") {
  Model m = if_model();
  m.main.operations[0].inputs[3] = 1000;                   // operand index out of range
  m.main.operands[2].location.offset = 7;                  // a subgraph that does not exist
  m.main.operations.push_back({static_cast<OperationType>(555), {0}, {}});  // unknown code
  m.main.operands[5].type = static_cast<OperandType>(4242);                  // unknown type
  std::string dot;
  std::size_t pieces = 0;
  nnhal::write_dot(m, [&](std::string_view s) {
    dot.append(s);
    ++pieces;
  });
  CHECK(pieces > 1);  // streamed in pieces through the sink
  CHECK(dot.find("g0_bad -> g0_op0 [label=\"3\"]") != std::string::npos);
  CHECK(dot.find("bad operand index") != std::string::npos);
  CHECK(dot.find("unknown operation 555") != std::string::npos);
  CHECK(dot.find("UNKNOWN_OPERAND_TYPE") != std::string::npos);
  CHECK(dot.find("g2_anchor") != std::string::npos);                  // the valid else edge
  CHECK(dot.find("lhead=cluster_8") == std::string::npos);            // no edge to subgraph 8
  CHECK(count(dot, "{") == count(dot, "}"));
}

TEST_CASE("to_dot: names with quotes are escaped") {
  // Labels come from the library's own names, but the writer escapes any quote or backslash.
  std::string out;
  auto sink = [&](std::string_view s) { out.append(s); };
  nnhal::dot_detail::Writer<decltype(sink)> w(sink);
  w.escaped("a\"b\\c");
  CHECK(out == "a\\\"b\\\\c");
}
